import { FakeApiKeySecrets, givenSessionWorld } from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { asUser, type Caller } from '../access/Caller.ts';
import { User } from '../auth/User.ts';
import { AcceptInvitation } from './AcceptInvitation.ts';
import { Invitation } from './Invitation.ts';
import { InviteMember } from './InviteMember.ts';
import { INVITATION_TTL_MS } from './memberRules.ts';

async function setUp() {
  const w = await givenSessionWorld();
  const secrets = new FakeApiKeySecrets();
  const now = w.clock.now();
  await w.users.ensure(User.create({ id: 'admin-1', email: 'admin-1@example.com', createdAt: now }));
  await w.members.add({ projectId: w.project.id, userId: 'admin-1', role: 'admin', now });
  for (const [id, email] of [
    ['carol-1', 'carol@example.com'],
    ['dave-1', 'dave@example.com'],
  ] as const) {
    await w.users.ensure(User.create({ id, email, createdAt: now }));
  }
  const deps = { ...w, secrets };
  const inviteMember = new InviteMember(deps);
  const invite = async (email = 'carol@example.com', role = 'developer') =>
    inviteMember.execute({ caller: asUser('admin-1'), projectId: w.project.id, email, role });
  const acceptInvitation = new AcceptInvitation(deps);
  const accept = (token: string, caller: Caller = asUser('carol-1')) =>
    acceptInvitation.execute({ caller, token });
  const stored = async (token: string) => w.invitations.findByDigest(secrets.digest(token));
  return { ...w, secrets, invite, accept, stored };
}

describe('AcceptInvitation', () => {
  it('makes the signed-in invitee a member with the invited role and spends the invitation', async () => {
    const { invite, accept, stored, members, project, clock } = await setUp();
    const { token } = await invite('carol@example.com', 'viewer');
    clock.advance(60_000);
    const grant = await accept(token);
    expect(grant).toMatchObject({ project: { id: project.id }, role: 'viewer' });
    expect(await members.find(project.id, 'carol-1')).toMatchObject({
      userId: 'carol-1',
      email: 'carol@example.com',
      role: 'viewer',
      createdAt: clock.now(),
    });
    expect(await stored(token)).toMatchObject({ acceptedAt: clock.now(), acceptedBy: 'carol-1' });
  });

  it('records the join in the audit log with the invitee as the actor', async () => {
    const { invite, accept, auditLog, project } = await setUp();
    const { token } = await invite();
    await accept(token);
    expect(auditLog.entries()[0]).toMatchObject({
      projectId: project.id,
      action: 'member.join',
      actor: { type: 'user', id: 'carol-1' },
      target: { type: 'user', id: 'carol-1' },
    });
  });

  it('is single-use: a second accept is not_found', async () => {
    const { invite, accept } = await setUp();
    const { token } = await invite();
    await accept(token);
    await expect(accept(token)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('lets one of two accepts at once join, and refuses the other', async () => {
    const { invite, accept, members, project, auditLog } = await setUp();
    const { token } = await invite();
    const results = await Promise.allSettled([accept(token), accept(token)]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'rejected')).toHaveLength(1);
    expect((await members.list(project.id)).map((m) => m.userId)).toEqual(['owner-1', 'admin-1', 'carol-1']);
    expect(auditLog.entries().filter((e) => e.action === 'member.join')).toHaveLength(1);
  });

  it('refuses another account with invitation_email_mismatch and leaves the invitation open', async () => {
    const { invite, accept, stored, members, project, clock } = await setUp();
    const { token } = await invite('carol@example.com');
    await expect(accept(token, asUser('dave-1'))).rejects.toMatchObject({
      code: 'invitation_email_mismatch',
    });
    expect(await members.find(project.id, 'dave-1')).toBeNull();
    expect((await stored(token))?.isOpenAt(clock.now())).toBe(true);
    await expect(accept(token)).resolves.toMatchObject({ role: 'developer' });
  });

  it('refuses with already_member an invitee who joined by another invitation meanwhile', async () => {
    const { invite, accept, members, project, stored, clock } = await setUp();
    const first = await invite('carol@example.com', 'viewer');
    const second = await invite('carol@example.com', 'admin');
    await accept(first.token);
    await expect(accept(second.token)).rejects.toMatchObject({ code: 'already_member' });
    expect((await members.find(project.id, 'carol-1'))?.role).toBe('viewer');
    expect((await stored(second.token))?.isOpenAt(clock.now())).toBe(true);
  });

  it('answers not_found for an unknown, malformed, expired or revoked invitation', async () => {
    const { invite, accept, invitations, project, clock, members } = await setUp();
    await expect(accept(`bdi_${'x'.repeat(43)}`)).rejects.toMatchObject({ code: 'not_found' });
    await expect(accept('not-a-token')).rejects.toMatchObject({ code: 'not_found' });
    const revoked = await invite();
    await invitations.revoke(project.id, revoked.invitation.id, clock.now());
    await expect(accept(revoked.token)).rejects.toMatchObject({ code: 'not_found' });
    const expiring = await invite();
    clock.advance(INVITATION_TTL_MS);
    await expect(accept(expiring.token)).rejects.toMatchObject({ code: 'not_found' });
    expect(await members.find(project.id, 'carol-1')).toBeNull();
  });

  it('answers not_found for an operator’s account invitation: it names no project', async () => {
    const { accept, invitations, secrets, clock } = await setUp();
    const token = secrets.generate('bdi_');
    await invitations.add(
      Invitation.create({
        id: 'account-invitation-1',
        projectId: null,
        email: 'carol@example.com',
        role: null,
        digest: secrets.digest(token),
        invitedBy: 'operator-1',
        now: clock.now(),
        expiresAt: new Date(clock.now().getTime() + INVITATION_TTL_MS),
      }),
    );
    await expect(accept(token)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('refuses an API key with forbidden_for_api_key', async () => {
    const { invite, accept, project } = await setUp();
    const { token } = await invite();
    const key: Caller = {
      kind: 'apiKey',
      keyId: 'k',
      keyName: 'CI',
      role: 'developer',
      projectId: project.id,
    };
    await expect(accept(token, key)).rejects.toMatchObject({ code: 'forbidden_for_api_key' });
  });
});
