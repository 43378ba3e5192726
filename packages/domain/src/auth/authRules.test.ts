import {
  FakeApiKeySecrets,
  InMemoryIdentityProvider,
  InMemoryInvitationRepository,
  InMemoryUserRepository,
  ManualClock,
  SequentialIdGenerator,
} from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { FixedWindowRateLimiter } from '../shared/FixedWindowRateLimiter.ts';
import { AccountAdmission } from './AccountAdmission.ts';
import { checkSignUp, normalizeEmail } from './authRules.ts';
import { SignIn } from './SignIn.ts';
import { SignUp } from './SignUp.ts';

describe('normalizeEmail', () => {
  it.each([
    ['full-width letters and at sign', 'ａｄａ＠ｅｘａｍｐｌｅ．ｃｏｍ', 'ada@example.com'],
    ['the small-form at sign', 'ada﹫example.com', 'ada@example.com'],
    ['a ligature', 'ﬁnn@example.com', 'finn@example.com'],
    ['mathematical bold letters', '𝐚𝐝𝐚@example.com', 'ada@example.com'],
    ['a superscript digit', 'ada²@example.com', 'ada2@example.com'],
    ['a decomposed accent', 'rene\u0301@example.com', 'ren\u00e9@example.com'],
    ['the Kelvin sign, upper case and outer spaces', ' \u212aATE@Example.COM\u3000', 'kate@example.com'],
  ])('folds %s', (_, raw, normal) => {
    expect(normalizeEmail(raw)).toBe(normal);
  });

  it('keeps look-alikes from other scripts apart (NFKC does not fold them)', () => {
    // Cyrillic а (U+0430) and Greek ο (U+03BF) are letters of their own.
    expect(normalizeEmail('\u0430da@example.com')).not.toBe('ada@example.com');
    expect(normalizeEmail('b\u03bfb@example.com')).not.toBe('bob@example.com');
  });

  it('is idempotent', () => {
    for (const raw of [
      'ａｄａ＠ｅｘａｍｐｌｅ．ｃｏｍ',
      ' \u212aATE@Example.COM',
      'İnci@example.com',
      'ß@x.de',
    ]) {
      const once = normalizeEmail(raw);
      expect(normalizeEmail(once)).toBe(once);
    }
  });
});

describe('checkSignUp', () => {
  const valid = { email: 'ada@example.com', password: 'correct horse', metadata: {} };

  it.each([
    ['a NUL in the e-mail', { email: 'ada\u0000@example.com' }, 'email'],
    ['a C1 control in the e-mail', { email: 'ada\u0085@example.com' }, 'email'],
    ['a NUL in a metadata string', { metadata: { name: 'Ada\u0000' } }, 'metadata'],
  ])('refuses %s', (_, change, path) => {
    expect(() => checkSignUp({ ...valid, ...change })).toThrow(
      expect.objectContaining({ code: 'validation_failed', errors: [expect.objectContaining({ path })] }),
    );
  });
});

describe('SignUp and SignIn with look-alike e-mails', () => {
  function setUp() {
    const clock = new ManualClock();
    const ids = new SequentialIdGenerator();
    const identity = new InMemoryIdentityProvider({ ids, clock });
    const users = new InMemoryUserRepository();
    const rateLimiter = new FixedWindowRateLimiter({ clock });
    const invitations = new InMemoryInvitationRepository();
    const admission = new AccountAdmission({ invitations, secrets: new FakeApiKeySecrets(), clock });
    return {
      signUp: new SignUp({ identity, users, invitations, admission, rateLimiter, clock }),
      signIn: new SignIn({ identity, users, rateLimiter }),
    };
  }

  it('stores the NFKC form, finds the user by any compatibility form, and counts them as one', async () => {
    const { signUp, signIn } = setUp();
    const { user } = await signUp.execute({ email: 'ＡＤＡ＠example.com', password: 'correct horse' });
    expect(user.email).toBe('ada@example.com');
    const grant = await signIn.execute({ email: 'ada@ｅｘａｍｐｌｅ.com', password: 'correct horse' });
    expect(grant.user).toEqual(user);
    await expect(
      signUp.execute({ email: 'ada﹫example.com', password: 'another one' }),
    ).rejects.toMatchObject({ code: 'email_taken' });
  });

  it('refuses a control character in the sign-in e-mail with validation_failed', async () => {
    const { signIn } = setUp();
    await expect(signIn.execute({ email: 'ada\u0000@example.com', password: 'x' })).rejects.toMatchObject({
      code: 'validation_failed',
      errors: [expect.objectContaining({ path: 'email' })],
    });
  });
});
