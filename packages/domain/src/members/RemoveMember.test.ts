import { givenSessionWorld } from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { authorizeProject } from '../access/authorizeProject.ts';
import { asUser, type Caller } from '../access/Caller.ts';
import { User } from '../auth/User.ts';
import { RemoveMember } from './RemoveMember.ts';

const MEMBERS = [
  ['admin-1', 'admin'],
  ['dev-1', 'developer'],
  ['viewer-1', 'viewer'],
] as const;

async function setUp() {
  const w = await givenSessionWorld();
  const now = w.clock.now();
  for (const [id, role] of MEMBERS) {
    await w.users.ensure(User.create({ id, email: `${id}@example.com`, createdAt: now }));
    await w.members.add({ projectId: w.project.id, userId: id, role, now });
  }
  const removeMember = new RemoveMember(w);
  const remove = (userId: string, caller: Caller = asUser('admin-1')) =>
    removeMember.execute({ caller, projectId: w.project.id, userId });
  const memberIds = async () => (await w.members.list(w.project.id)).map((m) => m.userId);
  return { ...w, remove, memberIds };
}

describe('RemoveMember', () => {
  it('lets an admin remove a member, who then cannot reach the project at all', async () => {
    const { remove, memberIds, projects, project } = await setUp();
    await remove('dev-1');
    expect(await memberIds()).toEqual(['owner-1', 'admin-1', 'viewer-1']);
    await expect(authorizeProject(projects, asUser('dev-1'), project.id, 'viewer')).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('records the removal in the audit log with the admin as the actor', async () => {
    const { remove, auditLog, project } = await setUp();
    await remove('viewer-1');
    expect(auditLog.entries()).toEqual([
      expect.objectContaining({
        projectId: project.id,
        action: 'member.remove',
        actor: expect.objectContaining({ type: 'user', id: 'admin-1' }),
        target: { type: 'user', id: 'viewer-1' },
      }),
    ]);
  });

  it('lets the owner remove an admin', async () => {
    const { remove, memberIds, owner } = await setUp();
    await remove('admin-1', owner);
    expect(await memberIds()).toEqual(['owner-1', 'dev-1', 'viewer-1']);
  });

  it.each(['dev-1', 'viewer-1'])(
    'refuses %s, below admin, removing another member with forbidden_for_role',
    async (id) => {
      const { remove, memberIds, auditLog } = await setUp();
      await expect(remove(id === 'dev-1' ? 'viewer-1' : 'dev-1', asUser(id))).rejects.toMatchObject({
        code: 'forbidden_for_role',
      });
      expect(await memberIds()).toEqual(['owner-1', 'admin-1', 'dev-1', 'viewer-1']);
      expect(auditLog.entries()).toEqual([]);
    },
  );

  it.each(['viewer-1', 'dev-1', 'admin-1'])('lets %s leave the project themselves', async (id) => {
    const { remove, memberIds, auditLog } = await setUp();
    await remove(id, asUser(id));
    expect(await memberIds()).not.toContain(id);
    expect(auditLog.entries()[0]).toMatchObject({
      action: 'member.remove',
      actor: { type: 'user', id },
      target: { type: 'user', id },
    });
  });

  it('refuses the owner leaving, or being removed, with owner_must_transfer', async () => {
    const { remove, memberIds, owner, ownerId } = await setUp();
    await expect(remove(ownerId, owner)).rejects.toMatchObject({ code: 'owner_must_transfer' });
    await expect(remove(ownerId)).rejects.toMatchObject({ code: 'owner_must_transfer' });
    expect(await memberIds()).toContain(ownerId);
  });

  it('answers not_found for removing someone who is no member, and for a non-member leaving', async () => {
    const { remove, auditLog } = await setUp();
    await expect(remove('stranger-1')).rejects.toMatchObject({ code: 'not_found' });
    await expect(remove('stranger-1', asUser('stranger-1'))).rejects.toMatchObject({ code: 'not_found' });
    expect(auditLog.entries()).toEqual([]);
  });

  it('refuses an API key with forbidden_for_api_key', async () => {
    const { remove, memberIds, project } = await setUp();
    const key: Caller = {
      kind: 'apiKey',
      keyId: 'k',
      keyName: 'CI',
      role: 'developer',
      projectId: project.id,
    };
    await expect(remove('viewer-1', key)).rejects.toMatchObject({ code: 'forbidden_for_api_key' });
    expect(await memberIds()).toContain('viewer-1');
  });
});
