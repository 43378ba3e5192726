import {
  FakeApiKeySecrets,
  InMemoryIdentityProvider,
  InMemoryInvitationRepository,
  InMemoryUserRepository,
  ManualClock,
  SequentialIdGenerator,
} from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { Invitation } from '../members/Invitation.ts';
import { FixedWindowRateLimiter } from '../shared/FixedWindowRateLimiter.ts';
import { AccountAdmission } from './AccountAdmission.ts';
import type { AuthRateLimits } from './authRateLimits.ts';
import { SignUp, type SignUpInput } from './SignUp.ts';
import type { SignupMode } from './signupModes.ts';

const LIMITS: AuthRateLimits = {
  signInPerEmail: { limit: 100, windowSec: 60 },
  signUpPerEmail: { limit: 2, windowSec: 60 },
  perAddress: { limit: 3, windowSec: 60 },
};

function setUp(options: { signupMode?: SignupMode; adminEmails?: string[] } = {}) {
  const clock = new ManualClock('2026-03-01T12:00:00.000Z');
  const ids = new SequentialIdGenerator();
  const identity = new InMemoryIdentityProvider({ ids, clock });
  const users = new InMemoryUserRepository();
  const invitations = new InMemoryInvitationRepository();
  const secrets = new FakeApiKeySecrets();
  const admission = new AccountAdmission({ invitations, secrets, clock, ...options });
  const signUp = new SignUp({
    identity,
    users,
    invitations,
    admission,
    clock,
    rateLimiter: new FixedWindowRateLimiter({ clock }),
    rateLimits: LIMITS,
  });
  const register = (input: Partial<SignUpInput> = {}) =>
    signUp.execute({ email: 'ada@example.com', password: 'correct horse', ...input });
  /** An open invitation for `email` and its token: a project's, or (`projectId` null) an operator's. */
  const invite = async (email: string, projectId: string | null) => {
    const token = secrets.generate('bdi_');
    const invitation = Invitation.create({
      id: ids.next(),
      projectId,
      email,
      role: projectId === null ? null : 'developer',
      digest: secrets.digest(token),
      invitedBy: 'inviter-1',
      now: clock.now(),
      expiresAt: new Date(clock.now().getTime() + 60 * 60_000),
    });
    await invitations.add(invitation);
    return { invitation, token };
  };
  /** Whether the invitation is still open now. */
  const stillOpen = async (token: string) =>
    (await invitations.findByDigest(secrets.digest(token)))?.isOpenAt(clock.now()) ?? false;
  /** Whether nobody could sign in as `email`: no identity was made. */
  const nobody = async (email = 'ada@example.com') =>
    identity.signIn(email, 'correct horse').then(
      () => false,
      () => true,
    );
  return { clock, identity, users, register, invite, stillOpen, nobody };
}

describe('SignUp', () => {
  it('creates the identity with the e-mail normalised and records the user, created now', async () => {
    const { identity, users, register } = setUp();
    const { user } = await register({ email: '  Ada@Example.COM ' });
    expect(user).toEqual({ id: expect.any(String), email: 'ada@example.com' });
    const stored = await users.findById(user.id);
    expect(stored).toMatchObject({ id: user.id, email: 'ada@example.com' });
    expect(stored?.createdAt.toISOString()).toBe('2026-03-01T12:00:00.000Z');
    await expect(identity.signIn('ada@example.com', 'correct horse')).resolves.toMatchObject({ user });
  });

  it('refuses a registered e-mail with email_taken and keeps the first user', async () => {
    const { users, register } = setUp();
    const { user } = await register();
    await expect(register({ email: 'ADA@example.com', password: 'another horse' })).rejects.toMatchObject({
      code: 'email_taken',
    });
    expect((await users.findById(user.id))?.email).toBe('ada@example.com');
  });

  it.each<[string, Partial<SignUpInput>, string]>([
    ['an e-mail without a domain', { email: 'ada@' }, 'email'],
    ['an e-mail over 254 characters', { email: `${'a'.repeat(250)}@example.com` }, 'email'],
    ['a password under 8 characters', { password: 'short' }, 'password'],
    ['a password over 256 characters', { password: 'p'.repeat(257) }, 'password'],
    ['metadata over 8 KiB', { metadata: { big: 'x'.repeat(8 * 1024) } }, 'metadata'],
    ['metadata that is not an object', { metadata: [] as unknown as Record<string, unknown> }, 'metadata'],
  ])('refuses %s with validation_failed and creates nobody', async (_, input, path) => {
    const { identity, register } = setUp();
    await expect(register(input)).rejects.toMatchObject({
      code: 'validation_failed',
      errors: expect.arrayContaining([expect.objectContaining({ path })]),
    });
    const email = input.email ?? 'ada@example.com';
    await expect(identity.signIn(email, input.password ?? 'correct horse')).rejects.toMatchObject({
      code: 'invalid_credentials',
    });
  });

  it('refuses sign-ups past the per-e-mail limit with rate_limited before asking the provider', async () => {
    const { register, clock } = setUp();
    await register();
    await expect(register()).rejects.toMatchObject({ code: 'email_taken' });
    await expect(register()).rejects.toMatchObject({ code: 'rate_limited' });
    clock.advance(60_000);
    await expect(register()).rejects.toMatchObject({ code: 'email_taken' });
  });

  it('limits sign-ups per client address across e-mails', async () => {
    const { register, users } = setUp();
    for (const email of ['a@example.com', 'b@example.com', 'c@example.com']) {
      await register({ email, clientAddress: '10.0.0.1' });
    }
    await expect(register({ email: 'd@example.com', clientAddress: '10.0.0.1' })).rejects.toMatchObject({
      code: 'rate_limited',
    });
    const { user } = await register({ email: 'd@example.com', clientAddress: '10.0.0.2' });
    expect((await users.findById(user.id))?.email).toBe('d@example.com');
  });
});

describe('SignUp with SIGNUP=invite', () => {
  it('refuses a sign-up without an invitation token with signup_closed and creates nobody', async () => {
    const { register, nobody } = setUp({ signupMode: 'invite' });
    await expect(register()).rejects.toMatchObject({ code: 'signup_closed' });
    expect(await nobody()).toBe(true);
  });

  it('accepts a valid project invitation for the e-mail and leaves it open for the accept link', async () => {
    const { register, invite, stillOpen, users } = setUp({ signupMode: 'invite' });
    const { token } = await invite('ada@example.com', 'project-1');
    const { user } = await register({ email: ' ADA@example.com ', invitation: token });
    expect((await users.findById(user.id))?.email).toBe('ada@example.com');
    expect(await stillOpen(token)).toBe(true);
  });

  it('accepts an operator’s invitation and spends it', async () => {
    const { register, invite, stillOpen } = setUp({ signupMode: 'invite' });
    const { token } = await invite('ada@example.com', null);
    await register({ invitation: token });
    expect(await stillOpen(token)).toBe(false);
  });

  it.each<[string, string]>([
    ['an unknown token', `bdi_${'x'.repeat(43)}`],
    ['a token of another shape', 'not-a-token'],
  ])('refuses %s with signup_closed', async (_, token) => {
    const { register, invite, nobody } = setUp({ signupMode: 'invite' });
    await invite('ada@example.com', 'project-1');
    await expect(register({ invitation: token })).rejects.toMatchObject({ code: 'signup_closed' });
    expect(await nobody()).toBe(true);
  });

  it('refuses an invitation for another e-mail, and an expired one, with signup_closed', async () => {
    const { register, invite, clock, nobody } = setUp({ signupMode: 'invite' });
    const forBob = await invite('bob@example.com', 'project-1');
    await expect(register({ invitation: forBob.token })).rejects.toMatchObject({ code: 'signup_closed' });
    const forAda = await invite('ada@example.com', 'project-1');
    clock.advance(60 * 60_000);
    await expect(register({ invitation: forAda.token })).rejects.toMatchObject({ code: 'signup_closed' });
    expect(await nobody()).toBe(true);
  });

  it('admits an operator’s e-mail (ADMIN_EMAILS) without a token', async () => {
    const { register } = setUp({ signupMode: 'invite', adminEmails: ['ada@example.com'] });
    await expect(register()).resolves.toMatchObject({ user: { email: 'ada@example.com' } });
  });
});

describe('SignUp with SIGNUP=closed', () => {
  it('refuses a sign-up without a token with signup_closed and creates nobody', async () => {
    const { register, nobody } = setUp({ signupMode: 'closed' });
    await expect(register()).rejects.toMatchObject({ code: 'signup_closed' });
    expect(await nobody()).toBe(true);
  });

  it('refuses a project invitation with signup_closed: only an operator’s makes an account', async () => {
    const { register, invite, stillOpen, nobody } = setUp({ signupMode: 'closed' });
    const { token } = await invite('ada@example.com', 'project-1');
    await expect(register({ invitation: token })).rejects.toMatchObject({ code: 'signup_closed' });
    expect(await nobody()).toBe(true);
    expect(await stillOpen(token)).toBe(true);
  });

  it('accepts a valid operator’s invitation and spends it, so it makes one account only', async () => {
    const { register, invite, stillOpen, users } = setUp({ signupMode: 'closed' });
    const { token } = await invite('ada@example.com', null);
    const { user } = await register({ invitation: token });
    expect(await users.findById(user.id)).toMatchObject({ email: 'ada@example.com', disabledAt: null });
    expect(await stillOpen(token)).toBe(false);
  });

  it('admits an operator’s e-mail without a token, so a closed installation gets its first operator', async () => {
    const { register } = setUp({ signupMode: 'closed', adminEmails: ['ada@example.com'] });
    await expect(register()).resolves.toMatchObject({ user: { email: 'ada@example.com' } });
  });
});
