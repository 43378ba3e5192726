import {
  InMemoryIdentityProvider,
  InMemoryUserRepository,
  ManualClock,
  SequentialIdGenerator,
} from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { FixedWindowRateLimiter } from '../shared/FixedWindowRateLimiter.ts';
import type { AuthRateLimits } from './authRateLimits.ts';
import { SignIn } from './SignIn.ts';
import { User } from './User.ts';

const LIMITS: AuthRateLimits = {
  signInPerEmail: { limit: 2, windowSec: 60 },
  signUpPerEmail: { limit: 100, windowSec: 60 },
  perAddress: { limit: 3, windowSec: 60 },
};

async function setUp() {
  const clock = new ManualClock('2026-03-01T12:00:00.000Z');
  const identity = new InMemoryIdentityProvider({ ids: new SequentialIdGenerator(), clock });
  const users = new InMemoryUserRepository();
  for (const email of ['ada@example.com', 'bob@example.com']) {
    const { id } = await identity.signUp({ email, password: 'correct horse', metadata: {} });
    await users.ensure(User.create({ id, email, createdAt: clock.now() }));
  }
  const signIn = new SignIn({
    identity,
    users,
    rateLimiter: new FixedWindowRateLimiter({ clock }),
    rateLimits: LIMITS,
  });
  const attempt = (email: string, password = 'correct horse', clientAddress?: string) =>
    signIn.execute({ email, password, clientAddress });
  return { clock, identity, users, attempt };
}

describe('SignIn', () => {
  it('answers a token pair for the right password, the e-mail normalised first', async () => {
    const { identity, attempt } = await setUp();
    const grant = await attempt('  ADA@Example.COM ');
    expect(grant.user.email).toBe('ada@example.com');
    expect(await identity.authenticate(grant.accessToken)).toMatchObject({ email: 'ada@example.com' });
  });

  it('refuses a wrong password and an unknown e-mail alike with invalid_credentials', async () => {
    const { attempt } = await setUp();
    await expect(attempt('ada@example.com', 'wrong horse')).rejects.toMatchObject({
      code: 'invalid_credentials',
    });
    await expect(attempt('nobody@example.com')).rejects.toMatchObject({ code: 'invalid_credentials' });
  });

  it('refuses a disabled account with account_disabled despite the right password; others sign in', async () => {
    const { attempt, users, clock } = await setUp();
    const ada = await users.findByEmail('ada@example.com');
    await users.setDisabled(ada!.id, clock.now());
    await expect(attempt('ada@example.com')).rejects.toMatchObject({ code: 'account_disabled' });
    await expect(attempt('bob@example.com')).resolves.toMatchObject({ user: { email: 'bob@example.com' } });
    await users.setDisabled(ada!.id, null);
    await expect(attempt('ada@example.com')).resolves.toMatchObject({ user: { email: 'ada@example.com' } });
  });

  it('refuses a control character in the e-mail with validation_failed', async () => {
    const { attempt } = await setUp();
    await expect(attempt('ada@exam\u0000ple.com')).rejects.toMatchObject({
      code: 'validation_failed',
      errors: [expect.objectContaining({ path: 'email' })],
    });
  });

  it('refuses attempts past the per-e-mail limit with rate_limited, right password or not, until the window ends', async () => {
    const { attempt, clock } = await setUp();
    await expect(attempt('ada@example.com', 'wrong horse')).rejects.toMatchObject({
      code: 'invalid_credentials',
    });
    await attempt('ADA@example.com');
    const error = await attempt('ada@example.com').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'rate_limited', retryAfterSec: expect.any(Number) });
    expect((error as { retryAfterSec: number }).retryAfterSec).toBeGreaterThan(0);
    await expect(attempt('bob@example.com')).resolves.toMatchObject({ user: { email: 'bob@example.com' } });
    clock.advance(60_000);
    await expect(attempt('ada@example.com')).resolves.toMatchObject({ user: { email: 'ada@example.com' } });
  });

  it('limits attempts per client address across e-mails', async () => {
    const { attempt } = await setUp();
    await attempt('ada@example.com', 'correct horse', '10.0.0.1');
    await attempt('bob@example.com', 'correct horse', '10.0.0.1');
    await expect(attempt('carol@example.com', 'x', '10.0.0.1')).rejects.toMatchObject({
      code: 'invalid_credentials',
    });
    await expect(attempt('bob@example.com', 'correct horse', '10.0.0.1')).rejects.toMatchObject({
      code: 'rate_limited',
    });
  });

  it('applies no address limit to a caller without an address', async () => {
    const { attempt } = await setUp();
    for (const email of ['ada@example.com', 'ada@example.com', 'bob@example.com', 'bob@example.com']) {
      await expect(attempt(email)).resolves.toMatchObject({ user: { email } });
    }
  });
});
