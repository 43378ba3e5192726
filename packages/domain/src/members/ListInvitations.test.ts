import { FakeApiKeySecrets, givenSessionWorld } from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { asUser, type Caller } from '../access/Caller.ts';
import { User } from '../auth/User.ts';
import { AcceptInvitation } from './AcceptInvitation.ts';
import { InviteMember } from './InviteMember.ts';
import { ListInvitations } from './ListInvitations.ts';
import { INVITATION_TTL_MS } from './memberRules.ts';

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
  const inviteMember = new InviteMember(deps);
  const invite = (email: string, projectId = w.project.id) =>
    inviteMember.execute({ caller: w.owner, projectId, email, role: 'developer' });
  const listInvitations = new ListInvitations(w);
  const list = (caller: Caller = asUser('admin-1')) =>
    listInvitations.execute({ caller, projectId: w.project.id });
  const emails = async (caller?: Caller) => (await list(caller)).map((i) => i.email);
  return { ...w, deps, invite, list, emails };
}

describe('ListInvitations', () => {
  it('lists the project’s open invitations, newest first, to an admin', async () => {
    const { invite, emails, clock } = await setUp();
    await invite('a@example.com');
    clock.advance(1_000);
    await invite('b@example.com');
    expect(await emails()).toEqual(['b@example.com', 'a@example.com']);
  });

  it('leaves out accepted, revoked and expired invitations, and another project’s', async () => {
    const { invite, emails, invitations, project, clock, addProject, deps } = await setUp();
    const other = await addProject('Other', 'other');
    await invite('elsewhere@example.com', other.id);
    const accepted = await invite('carol@example.com');
    await new AcceptInvitation(deps).execute({ caller: asUser('carol-1'), token: accepted.token });
    const revoked = await invite('revoked@example.com');
    await invitations.revoke(project.id, revoked.invitation.id, clock.now());
    await invite('expiring@example.com');
    clock.advance(INVITATION_TTL_MS - 1);
    await invite('open@example.com');
    expect(await emails()).toEqual(['open@example.com', 'expiring@example.com']);
    clock.advance(1);
    expect(await emails()).toEqual(['open@example.com']);
  });

  it('answers the invitations without their tokens', async () => {
    const { invite, list } = await setUp();
    const { token } = await invite('a@example.com');
    const [listed] = await list();
    // Only its digest is kept (the fake "digest" wraps the token, so compare whole values).
    expect(Object.values(listed!)).not.toContain(token);
  });

  it('lets the owner list them, and refuses a developer and a viewer with forbidden_for_role', async () => {
    const { invite, emails, owner } = await setUp();
    await invite('a@example.com');
    expect(await emails(owner)).toEqual(['a@example.com']);
    for (const id of ['dev-1', 'viewer-1']) {
      await expect(emails(asUser(id))).rejects.toMatchObject({ code: 'forbidden_for_role' });
    }
  });

  it('answers not_found to a non-member and forbidden_for_api_key to the project’s key', async () => {
    const { emails, project } = await setUp();
    await expect(emails(asUser('stranger-1'))).rejects.toMatchObject({ code: 'not_found' });
    const key: Caller = {
      kind: 'apiKey',
      keyId: 'k',
      keyName: 'CI',
      role: 'developer',
      projectId: project.id,
    };
    await expect(emails(key)).rejects.toMatchObject({ code: 'forbidden_for_api_key' });
  });
});
