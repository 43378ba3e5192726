import {
  InMemoryIdentityProvider,
  InMemoryUserRepository,
  ManualClock,
  SequentialIdGenerator,
} from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { FixedWindowRateLimiter } from '../shared/FixedWindowRateLimiter.ts';
import type { AuthRateLimits } from './authRateLimits.ts';
import { SignUp, type SignUpInput } from './SignUp.ts';

const LIMITS: AuthRateLimits = {
  signInPerEmail: { limit: 100, windowSec: 60 },
  signUpPerEmail: { limit: 2, windowSec: 60 },
  perAddress: { limit: 3, windowSec: 60 },
};

function setUp() {
  const clock = new ManualClock('2026-03-01T12:00:00.000Z');
  const identity = new InMemoryIdentityProvider({ ids: new SequentialIdGenerator(), clock });
  const users = new InMemoryUserRepository();
  const signUp = new SignUp({
    identity,
    users,
    clock,
    rateLimiter: new FixedWindowRateLimiter({ clock }),
    rateLimits: LIMITS,
  });
  const register = (input: Partial<SignUpInput> = {}) =>
    signUp.execute({ email: 'ada@example.com', password: 'correct horse', ...input });
  return { clock, identity, users, register };
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
