import { givenSessionWorld } from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { asUser, type Caller } from '../access/Caller.ts';
import { User } from '../auth/User.ts';
import { ListMembers } from './ListMembers.ts';

describe('ListMembers', () => {
  async function setUp() {
    const w = await givenSessionWorld();
    for (const [id, role] of [
      ['viewer-1', 'viewer'],
      ['admin-1', 'admin'],
    ] as const) {
      w.clock.advance(1_000);
      await w.users.ensure(User.create({ id, email: `${id}@example.com`, createdAt: w.clock.now() }));
      await w.members.add({ projectId: w.project.id, userId: id, role, now: w.clock.now() });
    }
    const listMembers = new ListMembers(w);
    const list = (caller: Caller) => listMembers.execute({ caller, projectId: w.project.id });
    return { ...w, list };
  }

  it('lists the members with their e-mails and roles, the owner first, then oldest first, to any member', async () => {
    const { list } = await setUp();
    const expected = [
      ['owner-1', 'owner-1@example.com', 'owner'],
      ['viewer-1', 'viewer-1@example.com', 'viewer'],
      ['admin-1', 'admin-1@example.com', 'admin'],
    ];
    expect((await list(asUser('viewer-1'))).map((m) => [m.userId, m.email, m.role])).toEqual(expected);
  });

  it('answers not_found to a non-member and lets the project’s viewer key read them', async () => {
    const { list, project } = await setUp();
    await expect(list(asUser('stranger-1'))).rejects.toMatchObject({ code: 'not_found' });
    const key: Caller = { kind: 'apiKey', keyId: 'k', keyName: 'CI', role: 'viewer', projectId: project.id };
    expect(await list(key)).toHaveLength(3);
  });
});
