import { givenSessionWorld } from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { authorizeProject } from '../access/authorizeProject.ts';
import { asUser, type Caller } from '../access/Caller.ts';
import { User } from '../auth/User.ts';
import { ChangeMemberRole } from './ChangeMemberRole.ts';

const MEMBERS = [
  ['admin-1', 'admin'],
  ['admin-2', 'admin'],
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
  w.clock.advance(60_000);
  const changeMemberRole = new ChangeMemberRole(w);
  const change = (userId: string, role: string, caller: Caller = asUser('admin-1')) =>
    changeMemberRole.execute({ caller, projectId: w.project.id, userId, role });
  const roleOf = async (userId: string) => (await w.members.find(w.project.id, userId))?.role ?? null;
  return { ...w, change, roleOf };
}

describe('ChangeMemberRole', () => {
  it('lets an admin give a member another role, stored and answered, updated now', async () => {
    const { change, roleOf, clock, project } = await setUp();
    const member = await change('dev-1', 'viewer');
    expect(member).toMatchObject({
      projectId: project.id,
      userId: 'dev-1',
      email: 'dev-1@example.com',
      role: 'viewer',
      updatedAt: clock.now(),
    });
    expect(await roleOf('dev-1')).toBe('viewer');
  });

  it('records the change in the audit log with the admin as the actor and the member as the target', async () => {
    const { change, auditLog, project } = await setUp();
    await change('viewer-1', 'developer');
    expect(auditLog.entries()).toEqual([
      expect.objectContaining({
        projectId: project.id,
        action: 'member.role_change',
        actor: expect.objectContaining({ type: 'user', id: 'admin-1' }),
        target: { type: 'user', id: 'viewer-1' },
      }),
    ]);
  });

  it('takes effect at once: a member demoted to viewer loses the developer’s rights', async () => {
    const { change, projects, project } = await setUp();
    await expect(authorizeProject(projects, asUser('dev-1'), project.id, 'developer')).resolves.toBeDefined();
    await change('dev-1', 'viewer');
    await expect(authorizeProject(projects, asUser('dev-1'), project.id, 'developer')).rejects.toMatchObject({
      code: 'forbidden_for_role',
    });
  });

  it('lets the owner and admins change other admins', async () => {
    const { change, roleOf, owner } = await setUp();
    await change('admin-2', 'developer');
    expect(await roleOf('admin-2')).toBe('developer');
    await change('admin-1', 'viewer', owner);
    expect(await roleOf('admin-1')).toBe('viewer');
  });

  it.each(['dev-1', 'viewer-1'])(
    'refuses %s, below admin, with forbidden_for_role and changes nothing',
    async (id) => {
      const { change, roleOf, auditLog } = await setUp();
      await expect(change('viewer-1', 'admin', asUser(id))).rejects.toMatchObject({
        code: 'forbidden_for_role',
      });
      expect(await roleOf('viewer-1')).toBe('viewer');
      expect(auditLog.entries()).toEqual([]);
    },
  );

  it('refuses to change the owner’s role with owner_must_transfer', async () => {
    const { change, roleOf, ownerId, owner } = await setUp();
    await expect(change(ownerId, 'admin')).rejects.toMatchObject({ code: 'owner_must_transfer' });
    await expect(change(ownerId, 'viewer', owner)).rejects.toMatchObject({ code: 'owner_must_transfer' });
    expect(await roleOf(ownerId)).toBe('owner');
  });

  it('refuses to give the owner role, or an unknown one, with validation_failed', async () => {
    const { change, roleOf } = await setUp();
    for (const role of ['owner', 'root']) {
      await expect(change('dev-1', role)).rejects.toMatchObject({
        code: 'validation_failed',
        errors: [expect.objectContaining({ path: 'role' })],
      });
    }
    expect(await roleOf('dev-1')).toBe('developer');
  });

  it('answers not_found for someone who is no member, and records nothing', async () => {
    const { change, auditLog } = await setUp();
    await expect(change('stranger-1', 'viewer')).rejects.toMatchObject({ code: 'not_found' });
    expect(auditLog.entries()).toEqual([]);
  });

  it('refuses an API key with forbidden_for_api_key', async () => {
    const { change, roleOf, project } = await setUp();
    const key: Caller = {
      kind: 'apiKey',
      keyId: 'k',
      keyName: 'CI',
      role: 'developer',
      projectId: project.id,
    };
    await expect(change('dev-1', 'viewer', key)).rejects.toMatchObject({ code: 'forbidden_for_api_key' });
    expect(await roleOf('dev-1')).toBe('developer');
  });
});
