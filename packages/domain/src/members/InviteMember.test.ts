import { FakeApiKeySecrets, givenSessionWorld } from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { asUser, type Caller, signedIn } from '../access/Caller.ts';
import { User } from '../auth/User.ts';
import { InviteMember } from './InviteMember.ts';
import { INVITATION_TOKEN_PATTERN, INVITATION_TTL_MS, MEMBERS_PER_PROJECT_MAX } from './memberRules.ts';

const MEMBERS = [
  ['admin-1', 'admin'],
  ['dev-1', 'developer'],
  ['viewer-1', 'viewer'],
] as const;

async function setUp() {
  const w = await givenSessionWorld();
  const secrets = new FakeApiKeySecrets();
  const now = w.clock.now();
  for (const [id, role] of MEMBERS) {
    await w.users.ensure(User.create({ id, email: `${id}@example.com`, createdAt: now }));
    await w.members.add({ projectId: w.project.id, userId: id, role, now });
  }
  await w.users.ensure(User.create({ id: 'bob-1', email: 'bob@example.com', createdAt: now }));
  const inviteMember = new InviteMember({ ...w, secrets });
  const invite = (input: { email?: string; role?: string } = {}, caller: Caller = asUser('admin-1')) =>
    inviteMember.execute({
      caller,
      projectId: w.project.id,
      email: input.email ?? 'carol@example.com',
      role: input.role ?? 'developer',
    });
  const open = () => w.invitations.listOpen(w.project.id, w.clock.now());
  return { ...w, secrets, invite, open };
}

describe('InviteMember', () => {
  it('lets an admin invite an e-mail with a role: an expiring link shown once, only its digest stored', async () => {
    const { invite, open, secrets, project, clock } = await setUp();
    const { invitation, token } = await invite({ email: '  Carol@Example.COM ', role: 'viewer' });
    expect(token).toMatch(INVITATION_TOKEN_PATTERN);
    expect(invitation).toMatchObject({
      projectId: project.id,
      email: 'carol@example.com',
      role: 'viewer',
      digest: secrets.digest(token),
      invitedBy: 'admin-1',
      createdAt: clock.now(),
      expiresAt: new Date(clock.now().getTime() + INVITATION_TTL_MS),
      acceptedAt: null,
      revokedAt: null,
    });
    const stored = await open();
    expect(stored.map((i) => i.id)).toEqual([invitation.id]);
    expect(Object.values(stored[0]!)).not.toContain(token);
  });

  it('records the invite in the audit log with the inviting admin as the actor', async () => {
    const { invite, auditLog, project, clock } = await setUp();
    const admin = signedIn({
      userId: 'admin-1',
      email: 'admin-1@example.com',
      sessionId: 'sign-in-1',
      expiresAt: new Date(clock.now().getTime() + 900_000),
    });
    const { invitation, token } = await invite({}, admin);
    expect(auditLog.entries()).toEqual([
      {
        id: expect.any(String),
        projectId: project.id,
        at: clock.now(),
        actor: { type: 'user', id: 'admin-1', email: 'admin-1@example.com' },
        action: 'member.invite',
        target: { type: 'invitation', id: invitation.id },
        requestId: null,
        ip: null,
      },
    ]);
    expect(JSON.stringify(auditLog.entries())).not.toContain(token);
  });

  it('lets the owner invite too, an admin among the roles', async () => {
    const { invite, owner, ownerId } = await setUp();
    const { invitation } = await invite({ role: 'admin' }, owner);
    expect(invitation).toMatchObject({ role: 'admin', invitedBy: ownerId });
  });

  it.each(['dev-1', 'viewer-1'])(
    'refuses %s, below admin, with forbidden_for_role and stores nothing',
    async (id) => {
      const { invite, open, auditLog } = await setUp();
      await expect(invite({}, asUser(id))).rejects.toMatchObject({ code: 'forbidden_for_role' });
      expect(await open()).toEqual([]);
      expect(auditLog.entries()).toEqual([]);
    },
  );

  it('answers not_found to a non-member and forbidden_for_api_key to the project’s key', async () => {
    const { invite, open, project } = await setUp();
    await expect(invite({}, asUser('bob-1'))).rejects.toMatchObject({ code: 'not_found' });
    const key: Caller = {
      kind: 'apiKey',
      keyId: 'k',
      keyName: 'CI',
      role: 'developer',
      projectId: project.id,
    };
    await expect(invite({}, key)).rejects.toMatchObject({ code: 'forbidden_for_api_key' });
    expect(await open()).toEqual([]);
  });

  it('refuses an e-mail whose account is a member already with already_member', async () => {
    const { invite, open, owner } = await setUp();
    await expect(invite({ email: 'DEV-1@example.com' })).rejects.toMatchObject({ code: 'already_member' });
    await expect(invite({ email: 'owner-1@example.com' }, owner)).rejects.toMatchObject({
      code: 'already_member',
    });
    expect(await open()).toEqual([]);
  });

  it('invites an existing account that is no member yet', async () => {
    const { invite } = await setUp();
    await expect(invite({ email: 'bob@example.com' })).resolves.toMatchObject({
      invitation: { email: 'bob@example.com' },
    });
  });

  it.each<[string, { email?: string; role?: string }, string]>([
    ['the owner role: ownership passes only by transfer', { role: 'owner' }, 'role'],
    ['an unknown role', { role: 'superuser' }, 'role'],
    ['an e-mail without a domain', { email: 'carol@' }, 'email'],
  ])('refuses %s with validation_failed', async (_, input, path) => {
    const { invite, open } = await setUp();
    await expect(invite(input)).rejects.toMatchObject({
      code: 'validation_failed',
      errors: [expect.objectContaining({ path })],
    });
    expect(await open()).toEqual([]);
  });

  it('refuses with member_limit_reached once members and open invitations fill the project; a revoke makes room', async () => {
    const { invite, members, invitations, project, clock } = await setUp();
    // The owner and three members are 4; fill up to one below the most with more members.
    for (let n = 4; n < MEMBERS_PER_PROJECT_MAX - 1; n++) {
      await members.add({ projectId: project.id, userId: `filler-${n}`, role: 'viewer', now: clock.now() });
    }
    const { invitation } = await invite({ email: 'last@example.com' });
    await expect(invite()).rejects.toMatchObject({ code: 'member_limit_reached' });
    await invitations.revoke(project.id, invitation.id, clock.now());
    await expect(invite()).resolves.toMatchObject({ invitation: { email: 'carol@example.com' } });
  });

  it('counts an expired invitation no more', async () => {
    const { invite, members, project, clock } = await setUp();
    for (let n = 4; n < MEMBERS_PER_PROJECT_MAX - 1; n++) {
      await members.add({ projectId: project.id, userId: `filler-${n}`, role: 'viewer', now: clock.now() });
    }
    await invite({ email: 'last@example.com' });
    clock.advance(INVITATION_TTL_MS);
    await expect(invite()).resolves.toMatchObject({ invitation: { email: 'carol@example.com' } });
  });
});
