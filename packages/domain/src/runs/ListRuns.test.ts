import { aRun, givenRunWorld } from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { asUser } from '../access/Caller.ts';
import { utf8Length } from '../shared/checks.ts';
import type { RunsQuery } from './ListRuns.ts';
import { Run } from './Run.ts';
import { RUN_ERROR_CUT_MARK, RUN_ERROR_MESSAGE_MAX_BYTES, RUN_PAGE_MAX_BYTES } from './runRules.ts';
import type { RunStatus } from './runStatus.ts';

async function setUp() {
  const world = await givenRunWorld();
  const at = (minute: number) => new Date(world.clock.now().getTime() + minute * 60_000);
  const agentId = '00000000-0000-7000-8000-0000000a9e01';
  const sessionId = '00000000-0000-7000-8000-00000005e501';
  const specs: Array<{ status: RunStatus; agent: boolean }> = [
    { status: 'QUEUED', agent: true },
    { status: 'RUNNING', agent: false },
    { status: 'SUCCEEDED', agent: true },
    { status: 'FAILED', agent: false },
  ];
  const stored = [];
  for (const [i, spec] of specs.entries()) {
    const run = aRun({
      projectId: world.project.id,
      ownerId: world.ownerId,
      status: spec.status,
      agentId: spec.agent ? agentId : null,
      sessionId: spec.agent ? null : sessionId,
      now: at(i),
    });
    await world.runRepository.add(run);
    stored.push(run);
  }
  const list = (query: RunsQuery = {}, caller = world.owner) =>
    world.runs.list.execute({ caller, projectId: world.project.id, query });
  return { ...world, stored, list, agentId, sessionId };
}

describe('ListRuns', () => {
  it('bounds a page by bytes: runs with 1 MiB results come a few to a page, each at most 1 MiB', async () => {
    const world = await givenRunWorld();
    for (let i = 0; i < 5; i++) {
      const run = aRun({ projectId: world.project.id, ownerId: world.ownerId, status: 'RUNNING' });
      run.end({ status: 'SUCCEEDED', result: 'r'.repeat(400 * 1024), exitCode: 0 }, world.clock.now());
      await world.runRepository.add(run);
    }
    const list = (offset: number) =>
      world.runs.list.execute({
        caller: world.owner,
        projectId: world.project.id,
        query: { limit: 100, offset },
      });
    const seen: string[] = [];
    for (let offset = 0; offset < 5; ) {
      const page = await list(offset);
      expect(page.total).toBe(5);
      expect(page.runs.length).toBeGreaterThan(0);
      expect(utf8Length(JSON.stringify(page.runs))).toBeLessThanOrEqual(RUN_PAGE_MAX_BYTES);
      seen.push(...page.runs.map((r) => r.id));
      offset += page.runs.length;
    }
    expect(new Set(seen).size).toBe(5);
  });

  it('answers an error message of 7 MB cut to 4 KiB and marked, stored before or after the bound', async () => {
    const world = await givenRunWorld();
    const run = aRun({ projectId: world.project.id, ownerId: world.ownerId, status: 'RUNNING' });
    const huge = { code: 'script_error' as const, message: 'e'.repeat(7_000_000) };
    run.end({ status: 'FAILED', error: huge, exitCode: 1 }, world.clock.now());
    const bytes = (message = '') => utf8Length(message);
    expect(bytes(run.error?.message)).toBe(RUN_ERROR_MESSAGE_MAX_BYTES);
    expect(run.error?.message.endsWith(RUN_ERROR_CUT_MARK)).toBe(true);
    // A row from before the bound holds it whole: it is answered cut all the same.
    const legacy = Run.restore({ ...run, error: huge });
    expect(bytes(legacy.error?.message)).toBe(RUN_ERROR_MESSAGE_MAX_BYTES);
    await world.runRepository.add(legacy);
    const page = await world.runs.list.execute({
      caller: world.owner,
      projectId: world.project.id,
      query: {},
    });
    expect(page.runs[0]!.error).toEqual(run.error);
  });

  it('lists the project’s runs newest first with the page it answers', async () => {
    const { list, stored } = await setUp();
    const page = await list();
    expect(page.runs.map((r) => r.id)).toEqual(stored.map((r) => r.id).reverse());
    expect(page).toMatchObject({ total: 4, limit: 20, offset: 0 });
    expect(
      await list({ limit: 2, offset: 1 }).then((p) => [p.runs.map((r) => r.id), p.total, p.limit, p.offset]),
    ).toEqual([[stored[2]!.id, stored[1]!.id], 4, 2, 1]);
  });

  it('filters by agent, session and status', async () => {
    const { list, stored, agentId, sessionId } = await setUp();
    expect((await list({ agentId })).runs.map((r) => r.id)).toEqual([stored[2]!.id, stored[0]!.id]);
    expect((await list({ sessionId })).total).toBe(2);
    expect((await list({ status: 'RUNNING' })).runs.map((r) => r.id)).toEqual([stored[1]!.id]);
  });

  it('refuses a limit outside 1..100, a negative offset and an unknown status, naming each', async () => {
    const { list } = await setUp();
    await expect(list({ limit: 0, offset: -1, status: 'DONE' as RunStatus })).rejects.toMatchObject({
      code: 'validation_failed',
      errors: [
        { path: 'limit', message: expect.any(String) },
        { path: 'offset', message: expect.any(String) },
        { path: 'status', message: expect.any(String) },
      ],
    });
    await expect(list({ limit: 101 })).rejects.toMatchObject({ errors: [{ path: 'limit' }] });
    expect((await list({ limit: 100 })).limit).toBe(100);
  });

  it('answers not_found for another user’s project', async () => {
    const { list } = await setUp();
    await expect(list({}, asUser('owner-2'))).rejects.toMatchObject({ code: 'not_found' });
  });
});
