import { FakeApiKeySecrets, givenSessionWorld } from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { asUser, type Caller } from '../access/Caller.ts';
import { User } from '../auth/User.ts';
import { AcceptInvitation } from './AcceptInvitation.ts';
import { InviteMember } from './InviteMember.ts';
import { RevokeInvitation } from './RevokeInvitation.ts';

async function setUp() {
  const w = await givenSessionWorld();
  const now = w.clock.now();
  for (const [id, role] of [
    ['admin-1', 'admin'],
    ['dev-1', 'developer'],
    ['viewer-1', 'viewer'],
  ] as const) {
    await w.members.add({ projectId: w.project.id, userId: id, role, now });
  }
  await w.users.ensure(User.create({ id: 'carol-1', email: 'carol@example.com', createdAt: now }));
  const deps = { ...w, secrets: new FakeApiKeySecrets() };
  const invite = (projectId = w.project.id) =>
    new InviteMember(deps).execute({
      caller: w.owner,
      projectId,
      email: 'carol@example.com',
      role: 'viewer',
    });
  const revokeInvitation = new RevokeInvitation(w);
  const revoke = (invitationId: string, caller: Caller = asUser('admin-1')) =>
    revokeInvitation.execute({ caller, projectId: w.project.id, invitationId });
  const accept = (token: string) => new AcceptInvitation(deps).execute({ caller: asUser('carol-1'), token });
  const open = () => w.invitations.listOpen(w.project.id, w.clock.now());
  /** The audit entries of revocations. */
  const revocations = () => w.auditLog.entries().filter((e) => e.action === 'invitation.revoke');
  return { ...w, invite, revoke, accept, open, revocations };
}

describe('RevokeInvitation', () => {
  it('lets an admin revoke an open invitation: it leaves the list and its link stops working', async () => {
    const { invite, revoke, accept, open, members, project } = await setUp();
    const { invitation, token } = await invite();
    await revoke(invitation.id);
    expect(await open()).toEqual([]);
    await expect(accept(token)).rejects.toMatchObject({ code: 'not_found' });
    expect(await members.find(project.id, 'carol-1')).toBeNull();
  });

  it('records the revocation in the audit log with the admin as the actor', async () => {
    const { invite, revoke, revocations, project } = await setUp();
    const { invitation } = await invite();
    await revoke(invitation.id);
    expect(revocations()).toEqual([
      expect.objectContaining({
        projectId: project.id,
        actor: expect.objectContaining({ type: 'user', id: 'admin-1' }),
        target: { type: 'invitation', id: invitation.id },
      }),
    ]);
  });

  it.each(['dev-1', 'viewer-1'])(
    'refuses %s, below admin, with forbidden_for_role and keeps it open',
    async (id) => {
      const { invite, revoke, open, revocations } = await setUp();
      const { invitation } = await invite();
      await expect(revoke(invitation.id, asUser(id))).rejects.toMatchObject({ code: 'forbidden_for_role' });
      expect((await open()).map((i) => i.id)).toEqual([invitation.id]);
      expect(revocations()).toEqual([]);
    },
  );

  it('answers not_found for an unknown, revoked, accepted or other project’s invitation, recording nothing', async () => {
    const { invite, revoke, accept, revocations, addProject } = await setUp();
    await expect(revoke('00000000-0000-7000-8000-0000000fffff')).rejects.toMatchObject({ code: 'not_found' });
    const revoked = await invite();
    await revoke(revoked.invitation.id);
    await expect(revoke(revoked.invitation.id)).rejects.toMatchObject({ code: 'not_found' });
    const accepted = await invite();
    await accept(accepted.token);
    await expect(revoke(accepted.invitation.id)).rejects.toMatchObject({ code: 'not_found' });
    const other = await addProject('Other', 'other');
    const elsewhere = await invite(other.id);
    await expect(revoke(elsewhere.invitation.id)).rejects.toMatchObject({ code: 'not_found' });
    expect(revocations()).toHaveLength(1);
  });

  it('refuses an API key with forbidden_for_api_key', async () => {
    const { invite, revoke, open, project } = await setUp();
    const { invitation } = await invite();
    const key: Caller = {
      kind: 'apiKey',
      keyId: 'k',
      keyName: 'CI',
      role: 'developer',
      projectId: project.id,
    };
    await expect(revoke(invitation.id, key)).rejects.toMatchObject({ code: 'forbidden_for_api_key' });
    expect(await open()).toHaveLength(1);
  });
});
