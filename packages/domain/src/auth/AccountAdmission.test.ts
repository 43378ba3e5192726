import { FakeApiKeySecrets, InMemoryInvitationRepository, ManualClock } from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { Invitation } from '../members/Invitation.ts';
import { AccountAdmission } from './AccountAdmission.ts';
import type { SignupMode } from './signupModes.ts';

const HOUR_MS = 3_600_000;

function setUp(options: { signupMode?: SignupMode; adminEmails?: string[] } = {}) {
  const clock = new ManualClock('2026-03-01T12:00:00.000Z');
  const invitations = new InMemoryInvitationRepository();
  const secrets = new FakeApiKeySecrets();
  const admission = new AccountAdmission({ invitations, secrets, clock, ...options });
  let n = 0;
  /** Stores an open invitation for `email`, for an hour: a project's, or (`projectId` null) an operator's. */
  const invite = async (email: string, projectId: string | null) => {
    const token = secrets.generate('bdi_');
    n++;
    const invitation = Invitation.create({
      id: `invitation-${n}`,
      projectId,
      email,
      role: projectId === null ? null : 'developer',
      digest: secrets.digest(token),
      invitedBy: 'inviter-1',
      now: clock.now(),
      expiresAt: new Date(clock.now().getTime() + HOUR_MS),
    });
    await invitations.add(invitation);
    return { invitation, token };
  };
  return { clock, invitations, admission, invite };
}

const CLOSED = { code: 'signup_closed' };

describe('AccountAdmission', () => {
  it('is open by default', () => {
    expect(setUp().admission.mode).toBe('open');
  });

  it('names the operators (ADMIN_EMAILS), and nobody else', () => {
    const { admission } = setUp({ adminEmails: ['ops@example.com', 'root@example.com'] });
    expect(admission.operatorEmails()).toEqual(['ops@example.com', 'root@example.com']);
    expect(admission.isOperator('ops@example.com')).toBe(true);
    expect(admission.isOperator('ada@example.com')).toBe(false);
    expect(setUp().admission.operatorEmails()).toEqual([]);
  });

  describe('SIGNUP=open', () => {
    it('admits every sign-up and first sync, with a token or without; an operator’s link is spent all the same', async () => {
      const { admission, invite } = setUp({ signupMode: 'open' });
      await expect(admission.admitSignUp('ada@example.com', undefined)).resolves.toBeNull();
      const { token } = await invite('ada@example.com', null);
      await expect(admission.admitSignUp('ada@example.com', token)).resolves.toMatchObject({
        projectId: null,
      });
      await expect(admission.admitSignUp('eve@example.com', token)).resolves.toBeNull();
      await expect(admission.admitSignUp('bob@example.com', 'garbage')).resolves.toBeNull();
      await expect(admission.admitSync('bob@example.com')).resolves.toBeUndefined();
    });
  });

  describe('SIGNUP=invite', () => {
    it('refuses a sign-up without a token with signup_closed', async () => {
      const { admission } = setUp({ signupMode: 'invite' });
      await expect(admission.admitSignUp('ada@example.com', undefined)).rejects.toMatchObject(CLOSED);
    });

    it('admits a project invitation for the e-mail without spending it (the accept link does)', async () => {
      const { admission, invite } = setUp({ signupMode: 'invite' });
      const { token } = await invite('ada@example.com', 'project-1');
      await expect(admission.admitSignUp('ada@example.com', token)).resolves.toBeNull();
    });

    it('admits an operator’s invitation and answers it, to be spent', async () => {
      const { admission, invite } = setUp({ signupMode: 'invite' });
      const { invitation, token } = await invite('ada@example.com', null);
      expect((await admission.admitSignUp('ada@example.com', token))?.id).toBe(invitation.id);
    });

    it('refuses an invitation for another e-mail, an unknown or malformed token, and a used, revoked or expired invitation', async () => {
      const { admission, invite, invitations, clock } = setUp({ signupMode: 'invite' });
      const forBob = await invite('bob@example.com', 'project-1');
      await expect(admission.admitSignUp('ada@example.com', forBob.token)).rejects.toMatchObject(CLOSED);
      await expect(admission.admitSignUp('ada@example.com', `bdi_${'x'.repeat(43)}`)).rejects.toMatchObject(
        CLOSED,
      );
      await expect(admission.admitSignUp('ada@example.com', 'bdk_not-an-invitation')).rejects.toMatchObject(
        CLOSED,
      );
      const used = await invite('ada@example.com', null);
      await invitations.accept(used.invitation.id, 'someone', clock.now());
      await expect(admission.admitSignUp('ada@example.com', used.token)).rejects.toMatchObject(CLOSED);
      const revoked = await invite('ada@example.com', 'project-1');
      await invitations.revoke('project-1', revoked.invitation.id, clock.now());
      await expect(admission.admitSignUp('ada@example.com', revoked.token)).rejects.toMatchObject(CLOSED);
      const expiring = await invite('ada@example.com', 'project-1');
      clock.advance(HOUR_MS);
      await expect(admission.admitSignUp('ada@example.com', expiring.token)).rejects.toMatchObject(CLOSED);
    });

    it('admits an operator’s e-mail without a token', async () => {
      const { admission } = setUp({ signupMode: 'invite', adminEmails: ['ops@example.com'] });
      await expect(admission.admitSignUp('ops@example.com', undefined)).resolves.toBeNull();
      await expect(admission.admitSync('ops@example.com')).resolves.toBeUndefined();
    });

    it('admits a first sync while any invitation for the e-mail is open, and refuses one without', async () => {
      const { admission, invite, clock } = setUp({ signupMode: 'invite' });
      await expect(admission.admitSync('ada@example.com')).rejects.toMatchObject(CLOSED);
      await invite('ada@example.com', 'project-1');
      await expect(admission.admitSync('ada@example.com')).resolves.toBeUndefined();
      await expect(admission.admitSync('bob@example.com')).rejects.toMatchObject(CLOSED);
      clock.advance(HOUR_MS);
      await expect(admission.admitSync('ada@example.com')).rejects.toMatchObject(CLOSED);
    });
  });

  describe('SIGNUP=closed', () => {
    it('refuses a sign-up without a token, and one with a project invitation, with signup_closed', async () => {
      const { admission, invite } = setUp({ signupMode: 'closed' });
      await expect(admission.admitSignUp('ada@example.com', undefined)).rejects.toMatchObject(CLOSED);
      const { token } = await invite('ada@example.com', 'project-1');
      const error = await admission.admitSignUp('ada@example.com', token).catch((e: unknown) => e);
      expect(error).toMatchObject({ ...CLOSED, message: expect.stringContaining('only operators') });
    });

    it('admits an operator’s invitation for the e-mail and answers it, to be spent', async () => {
      const { admission, invite } = setUp({ signupMode: 'closed' });
      const { invitation, token } = await invite('ada@example.com', null);
      expect((await admission.admitSignUp('ada@example.com', token))?.id).toBe(invitation.id);
      await expect(admission.admitSignUp('bob@example.com', token)).rejects.toMatchObject(CLOSED);
    });

    it('admits an operator’s e-mail without a token, so a closed installation gets its first operator', async () => {
      const { admission } = setUp({ signupMode: 'closed', adminEmails: ['ops@example.com'] });
      await expect(admission.admitSignUp('ops@example.com', undefined)).resolves.toBeNull();
      await expect(admission.admitSignUp('ada@example.com', undefined)).rejects.toMatchObject(CLOSED);
    });

    it('admits a first sync only on an operator’s open invitation, or for an operator', async () => {
      const { admission, invite } = setUp({ signupMode: 'closed', adminEmails: ['ops@example.com'] });
      await invite('ada@example.com', 'project-1');
      await expect(admission.admitSync('ada@example.com')).rejects.toMatchObject(CLOSED);
      await invite('ada@example.com', null);
      await expect(admission.admitSync('ada@example.com')).resolves.toBeUndefined();
      await expect(admission.admitSync('ops@example.com')).resolves.toBeUndefined();
    });
  });
});
