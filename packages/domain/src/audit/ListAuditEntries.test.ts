import { givenSessionWorld } from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { asUser, type Caller } from '../access/Caller.ts';
import type { AuditAction } from './AuditEntry.ts';
import { AUDIT_PAGE_DEFAULT, AUDIT_PAGE_MAX } from './auditRules.ts';
import { ListAuditEntries } from './ListAuditEntries.ts';

async function setUp() {
  const w = await givenSessionWorld();
  for (const [id, role] of [
    ['admin-1', 'admin'],
    ['dev-1', 'developer'],
    ['viewer-1', 'viewer'],
  ] as const) {
    await w.members.add({ projectId: w.project.id, userId: id, role, now: w.clock.now() });
  }
  /** Records `count` changes in `projectId` (or, null, of an account), a second apart; their target ids in order. */
  const given = async (
    count: number,
    projectId: string | null = w.project.id,
    action: AuditAction = 'agent.create',
  ) => {
    const targets: string[] = [];
    for (let n = 0; n < count; n++) {
      w.clock.advance(1_000);
      const target = { type: 'agent', id: `agent-${projectId ?? 'none'}-${n}` };
      await w.audit.record(w.owner, { projectId, action, target }, async () => {});
      targets.push(target.id);
    }
    return targets;
  };
  const listAuditEntries = new ListAuditEntries(w);
  const list = (input: { cursor?: string; limit?: number } = {}, caller: Caller = asUser('admin-1')) =>
    listAuditEntries.execute({ caller, projectId: w.project.id, ...input });
  return { ...w, given, list };
}

describe('ListAuditEntries', () => {
  it('answers an admin the project’s entries, newest first, each as it was recorded', async () => {
    const { given, list, project, clock, ownerId } = await setUp();
    const targets = await given(3);
    const page = await list();
    expect(page.nextCursor).toBeNull();
    expect(page.entries.map((e) => e.target.id)).toEqual([...targets].reverse());
    expect(page.entries[0]).toEqual({
      id: expect.any(String),
      projectId: project.id,
      at: clock.now(),
      actor: { type: 'user', id: ownerId, email: undefined },
      action: 'agent.create',
      target: { type: 'agent', id: targets[2] },
      requestId: null,
      ip: null,
    });
  });

  it('pages with the cursor it answers until the last page, which has none', async () => {
    const { given, list } = await setUp();
    const targets = (await given(5)).reverse();
    const first = await list({ limit: 2 });
    expect(first.entries.map((e) => e.target.id)).toEqual(targets.slice(0, 2));
    expect(first.nextCursor).not.toBeNull();
    const second = await list({ limit: 2, cursor: first.nextCursor! });
    expect(second.entries.map((e) => e.target.id)).toEqual(targets.slice(2, 4));
    const last = await list({ limit: 2, cursor: second.nextCursor! });
    expect(last.entries.map((e) => e.target.id)).toEqual(targets.slice(4));
    expect(last.nextCursor).toBeNull();
  });

  it(`answers ${AUDIT_PAGE_DEFAULT} entries a page by default, and up to ${AUDIT_PAGE_MAX} when asked`, async () => {
    const { given, list } = await setUp();
    await given(AUDIT_PAGE_MAX + 1);
    const byDefault = await list();
    expect(byDefault.entries).toHaveLength(AUDIT_PAGE_DEFAULT);
    expect(byDefault.nextCursor).not.toBeNull();
    const most = await list({ limit: AUDIT_PAGE_MAX });
    expect(most.entries).toHaveLength(AUDIT_PAGE_MAX);
    expect((await list({ limit: 1 })).entries).toHaveLength(1);
  });

  it.each([0, -1, AUDIT_PAGE_MAX + 1, 1.5, Number.NaN])(
    'refuses a limit of %s with validation_failed',
    async (limit) => {
      const { list } = await setUp();
      await expect(list({ limit })).rejects.toMatchObject({
        code: 'validation_failed',
        errors: [expect.objectContaining({ path: 'limit' })],
      });
    },
  );

  it('shows neither another project’s entries nor an operator’s account changes', async () => {
    const { given, list, addProject } = await setUp();
    const other = await addProject('Other', 'other');
    const ours = await given(1);
    await given(2, other.id);
    await given(1, null, 'account.disable');
    expect((await list()).entries.map((e) => e.target.id)).toEqual(ours);
  });

  it('lets the owner read it, and refuses a developer and a viewer with forbidden_for_role', async () => {
    const { given, list, owner } = await setUp();
    await given(1);
    expect((await list({}, owner)).entries).toHaveLength(1);
    for (const id of ['dev-1', 'viewer-1']) {
      await expect(list({}, asUser(id))).rejects.toMatchObject({ code: 'forbidden_for_role' });
    }
  });

  it('answers not_found to a non-member and forbidden_for_api_key to the project’s key', async () => {
    const { list, project } = await setUp();
    await expect(list({}, asUser('stranger-1'))).rejects.toMatchObject({ code: 'not_found' });
    const key: Caller = {
      kind: 'apiKey',
      keyId: 'k',
      keyName: 'CI',
      role: 'developer',
      projectId: project.id,
    };
    await expect(list({}, key)).rejects.toMatchObject({ code: 'forbidden_for_api_key' });
  });
});
