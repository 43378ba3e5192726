import { givenSessionWorld } from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { asUser } from '../access/Caller.ts';
import { ListSessions } from './ListSessions.ts';
import { ReleaseSession } from './ReleaseSession.ts';

const OWNER = 'owner-1';

async function setUp(count: number) {
  const { clock, projects, sessions, provider, project, startSession } = await givenSessionWorld();
  const created: string[] = [];
  for (let i = 0; i < count; i++) {
    clock.advance(1_000);
    created.push((await startSession()).id);
  }
  const release = (sessionId: string) =>
    new ReleaseSession({ projects, sessions, provider, clock }).execute({
      caller: asUser(OWNER),
      projectId: project.id,
      sessionId,
    });
  const listSessions = new ListSessions({ projects, sessions });
  const list = (
    query: {
      limit?: number;
      offset?: number;
      status?: 'RUNNING' | 'COMPLETED';
      metadata?: { path: string[]; value: string };
      metadataQuery?: string;
    } = {},
    ownerId = OWNER,
  ) => listSessions.execute({ caller: asUser(ownerId), projectId: project.id, ...query });
  return { list, created, release, provider };
}

describe('ListSessions', () => {
  it('answers the envelope with the defaults: newest first, limit 20, offset 0', async () => {
    const { list, created } = await setUp(25);
    const page = await list();
    expect(page.limit).toBe(20);
    expect(page.offset).toBe(0);
    expect(page.total).toBe(25);
    expect(page.sessions.map((s) => s.id)).toEqual(created.slice(5).reverse());
  });

  it('pages with limit and offset and filters by status', async () => {
    const { list, created, release, provider } = await setUp(5);
    await release(created[1]!);
    await release(created[3]!);
    const page = await list({ limit: 2, offset: 1 });
    expect(page).toMatchObject({ limit: 2, offset: 1, total: 5 });
    expect(page.sessions.map((s) => s.id)).toEqual([created[3], created[2]]);
    const completed = await list({ status: 'COMPLETED' });
    expect(completed.total).toBe(2);
    expect(completed.sessions.map((s) => s.id)).toEqual([created[3], created[1]]);
    // Served from the database: no provider call per listed session.
    expect(provider.calls.filter((c) => c.op === 'get')).toEqual([]);
  });

  it.each([
    [{ limit: 0 }, 'limit'],
    [{ limit: 101 }, 'limit'],
    [{ limit: 2.5 }, 'limit'],
    [{ offset: -1 }, 'offset'],
    [{ offset: 0.5 }, 'offset'],
  ])('refuses %o with validation_failed', async (query, path) => {
    const { list } = await setUp(1);
    await expect(list(query)).rejects.toMatchObject({
      code: 'validation_failed',
      errors: [expect.objectContaining({ path })],
    });
  });

  it('filters by metadata, given as a filter or as Browserbase’s q, with status and paging', async () => {
    const { clock, projects, sessions, startSession, project, owner } = await givenSessionWorld();
    const started = [];
    for (const metadata of [
      { env: 'staging' },
      { env: 'production' },
      { env: 'staging', run: { id: 'r-1' } },
      {},
    ]) {
      clock.advance(1_000);
      started.push(await startSession({ metadata }));
    }
    const [first, , third] = started;
    const list = (query: Omit<Parameters<ListSessions['execute']>[0], 'caller' | 'projectId'>) =>
      new ListSessions({ projects, sessions }).execute({ caller: owner, projectId: project.id, ...query });

    const byFilter = await list({ metadata: { path: ['env'], value: 'staging' } });
    expect(byFilter).toMatchObject({ total: 2, limit: 20, offset: 0 });
    expect(byFilter.sessions.map((s) => s.id)).toEqual([third!.id, first!.id]);
    const byQuery = await list({ metadataQuery: `user_metadata['env']:'staging'` });
    expect(byQuery.sessions.map((s) => s.id)).toEqual([third!.id, first!.id]);
    const nested = await list({ metadataQuery: `user_metadata["run"]["id"]:"r-1"` });
    expect(nested.sessions.map((s) => s.id)).toEqual([third!.id]);
    const paged = await list({ metadataQuery: `user_metadata['env']:'staging'`, limit: 1, offset: 1 });
    expect(paged).toMatchObject({ total: 2, limit: 1, offset: 1 });
    expect(paged.sessions.map((s) => s.id)).toEqual([first!.id]);
    expect((await list({ metadataQuery: `user_metadata['env']:'staging'`, status: 'COMPLETED' })).total).toBe(
      0,
    );
    expect((await list({ metadataQuery: `user_metadata['env']:'nowhere'` })).sessions).toEqual([]);
  });

  it.each([
    [{ metadataQuery: `env:'staging'` }, 'q'],
    [{ metadataQuery: "user_metadata['env']:'x\u0000'" }, 'q'],
    [{ metadata: { path: [], value: 'x' } }, 'metadata'],
    [{ metadata: { path: ['env'], value: 'x' }, metadataQuery: `user_metadata['env']:'x'` }, 'q'],
  ])('refuses the metadata filter %j with validation_failed', async (query, path) => {
    const { list } = await setUp(1);
    await expect(list(query)).rejects.toMatchObject({
      code: 'validation_failed',
      errors: [expect.objectContaining({ path })],
    });
  });

  it('accepts limit 100 and answers not_found for another owner', async () => {
    const { list } = await setUp(1);
    expect((await list({ limit: 100 })).sessions).toHaveLength(1);
    await expect(list({}, 'owner-2')).rejects.toMatchObject({ code: 'not_found' });
  });
});
