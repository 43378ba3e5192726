import { givenSessionWorld } from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { asUser, type Caller } from '../access/Caller.ts';
import { User } from '../auth/User.ts';
import { Project } from '../projects/Project.ts';
import { TransferProject } from './TransferProject.ts';

const MEMBERS = [
  ['admin-1', 'admin'],
  ['dev-1', 'developer'],
] as const;

async function setUp() {
  const w = await givenSessionWorld();
  const now = w.clock.now();
  for (const [id, role] of MEMBERS) {
    await w.users.ensure(User.create({ id, email: `${id}@example.com`, createdAt: now }));
    await w.members.add({ projectId: w.project.id, userId: id, role, now });
  }
  w.clock.advance(60_000);
  const transferProject = new TransferProject(w);
  const transfer = (userId: string, caller: Caller = w.owner) =>
    transferProject.execute({ caller, projectId: w.project.id, userId });
  const roles = async () =>
    Object.fromEntries((await w.members.list(w.project.id)).map((m) => [m.userId, m.role]));
  return { ...w, transfer, roles };
}

describe('TransferProject', () => {
  it('makes the member the owner and the old owner an admin, moving the project to them', async () => {
    const { transfer, roles, projects, project, ownerId } = await setUp();
    const grant = await transfer('dev-1');
    expect(grant).toMatchObject({ project: { id: project.id, ownerId: 'dev-1' }, role: 'admin' });
    expect(await roles()).toEqual({ 'dev-1': 'owner', [ownerId]: 'admin', 'admin-1': 'admin' });
    expect(await projects.listOwnedIds('dev-1')).toEqual([project.id]);
    expect(await projects.listOwnedIds(ownerId)).toEqual([]);
    expect((await projects.findAccess(project.id, ownerId))?.project.ownerId).toBe('dev-1');
  });

  it('records the transfer in the audit log with the old owner as the actor and the new one as the target', async () => {
    const { transfer, auditLog, project, ownerId } = await setUp();
    await transfer('admin-1');
    expect(auditLog.entries()).toEqual([
      expect.objectContaining({
        projectId: project.id,
        action: 'project.transfer',
        actor: expect.objectContaining({ type: 'user', id: ownerId }),
        target: { type: 'user', id: 'admin-1' },
      }),
    ]);
  });

  it('leaves the old owner without the owner’s rights: the new owner alone may transfer it on', async () => {
    const { transfer, roles, ownerId } = await setUp();
    await transfer('admin-1');
    await expect(transfer('dev-1')).rejects.toMatchObject({ code: 'forbidden_for_role' });
    await transfer(ownerId, asUser('admin-1'));
    expect(await roles()).toMatchObject({ [ownerId]: 'owner', 'admin-1': 'admin' });
  });

  it.each(['admin-1', 'dev-1'])(
    'refuses %s, below owner, with forbidden_for_role and changes nothing',
    async (id) => {
      const { transfer, roles, auditLog, ownerId } = await setUp();
      await expect(transfer(id, asUser(id))).rejects.toMatchObject({ code: 'forbidden_for_role' });
      expect((await roles())[ownerId]).toBe('owner');
      expect(auditLog.entries()).toEqual([]);
    },
  );

  it('answers not_found for someone who is no member, and changes nothing', async () => {
    const { transfer, roles, auditLog, ownerId } = await setUp();
    await expect(transfer('stranger-1')).rejects.toMatchObject({ code: 'not_found' });
    expect((await roles())[ownerId]).toBe('owner');
    expect(auditLog.entries()).toEqual([]);
  });

  it('refuses a transfer to the owner with validation_failed', async () => {
    const { transfer, ownerId } = await setUp();
    await expect(transfer(ownerId)).rejects.toMatchObject({
      code: 'validation_failed',
      errors: [expect.objectContaining({ path: 'userId' })],
    });
  });

  it('refuses a member whose account is disabled (the project would close to everyone), and changes nothing', async () => {
    const { transfer, roles, auditLog, users, clock, ownerId } = await setUp();
    await users.setDisabled('dev-1', clock.now());
    await expect(transfer('dev-1')).rejects.toMatchObject({
      code: 'validation_failed',
      errors: [expect.objectContaining({ path: 'userId' })],
    });
    expect(await roles()).toEqual({ [ownerId]: 'owner', 'admin-1': 'admin', 'dev-1': 'developer' });
    expect(auditLog.entries()).toEqual([]);
  });

  it('refuses slug_taken when the new owner owns a project of that slug already, and changes nothing', async () => {
    const { transfer, roles, projects, project, ownerId, clock, ids } = await setUp();
    await projects.add(
      Project.create({ id: ids.next(), ownerId: 'dev-1', name: 'Mine', slug: 'main', now: clock.now() }),
    );
    await expect(transfer('dev-1')).rejects.toMatchObject({ code: 'slug_taken' });
    expect(await roles()).toMatchObject({ [ownerId]: 'owner', 'dev-1': 'developer' });
    expect((await projects.findAccess(project.id, null))?.project.ownerId).toBe(ownerId);
  });

  it('refuses an API key with forbidden_for_api_key', async () => {
    const { transfer, project } = await setUp();
    const key: Caller = {
      kind: 'apiKey',
      keyId: 'k',
      keyName: 'CI',
      role: 'developer',
      projectId: project.id,
    };
    await expect(transfer('dev-1', key)).rejects.toMatchObject({ code: 'forbidden_for_api_key' });
  });
});
