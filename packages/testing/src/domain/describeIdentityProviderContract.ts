import type { IdentityProvider, TokenGrant } from '@browserdeck/domain';
import { DomainError, type ErrorCode } from '@browserdeck/domain';
import { describe, expect, it } from 'vitest';

/** A fresh identity provider for one contract test, and a way to move its clock if it has one. */
export interface IdentityProviderFixture {
  identity: IdentityProvider;
  /** Moves the provider's clock forward; tests that need it are skipped without it. */
  advanceTime?(ms: number): void;
}

async function expectCode(promise: Promise<unknown>, code: ErrorCode): Promise<DomainError> {
  const error = await promise.then(
    () => {
      throw new Error(`expected a DomainError '${code}', but the call succeeded`);
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  expect((error as DomainError).code).toBe(code);
  return error as DomainError;
}

/**
 * Behaviour every `IdentityProvider` must have (http-api.md §3): credentials, token rotation with reuse
 * detection, sign-out that also ends access tokens. `create` gives a fresh provider with no users.
 */
export function describeIdentityProviderContract(
  name: string,
  options: { create: () => Promise<IdentityProviderFixture> },
): void {
  describe(`IdentityProvider contract: ${name}`, () => {
    const password = 'correct horse battery';

    async function signedIn(
      email = 'ada@example.com',
    ): Promise<IdentityProviderFixture & { grant: TokenGrant }> {
      const fixture = await options.create();
      await fixture.identity.signUp({ email, password, metadata: {} });
      return { ...fixture, grant: await fixture.identity.signIn(email, password) };
    }

    it('signs up a user and signs them in with a token pair', async () => {
      const { identity } = await options.create();
      const user = await identity.signUp({ email: 'ada@example.com', password, metadata: { plan: 'free' } });
      expect(user.email).toBe('ada@example.com');
      expect(typeof user.id).toBe('string');
      expect(user.id.length).toBeGreaterThan(0);

      const grant = await identity.signIn('ada@example.com', password);
      expect(grant.user).toEqual({ id: user.id, email: 'ada@example.com' });
      expect(grant.accessToken.length).toBeGreaterThan(0);
      expect(grant.refreshToken.length).toBeGreaterThan(0);
      expect(grant.refreshToken).not.toBe(grant.accessToken);
      expect(grant.expiresIn).toBeGreaterThan(0);
      expect(grant.expiresAt).toBeInstanceOf(Date);
    });

    it('refuses a second sign-up with the same e-mail: email_taken', async () => {
      const { identity } = await options.create();
      await identity.signUp({ email: 'ada@example.com', password, metadata: {} });
      await expectCode(
        identity.signUp({ email: 'ada@example.com', password: 'another password', metadata: {} }),
        'email_taken',
      );
      // The first password still works: the refused sign-up changed nothing.
      await expect(identity.signIn('ada@example.com', password)).resolves.toBeDefined();
    });

    it('answers a wrong password and an unknown e-mail alike: invalid_credentials', async () => {
      const { identity } = await options.create();
      await identity.signUp({ email: 'ada@example.com', password, metadata: {} });
      const wrong = await expectCode(
        identity.signIn('ada@example.com', 'wrong password'),
        'invalid_credentials',
      );
      const unknown = await expectCode(
        identity.signIn('nobody@example.com', password),
        'invalid_credentials',
      );
      expect(unknown.message).toBe(wrong.message);
    });

    it('authenticates an access token as its principal', async () => {
      const { identity, grant } = await signedIn();
      const principal = await identity.authenticate(grant.accessToken);
      expect(principal.userId).toBe(grant.user.id);
      expect(principal.email).toBe('ada@example.com');
      expect(typeof principal.sessionId).toBe('string');
      expect(principal.sessionId.length).toBeGreaterThan(0);
      expect(principal.expiresAt.getTime()).toBe(grant.expiresAt.getTime());
    });

    it('gives each sign-in its own session', async () => {
      const { identity, grant } = await signedIn();
      const second = await identity.signIn('ada@example.com', password);
      const a = await identity.authenticate(grant.accessToken);
      const b = await identity.authenticate(second.accessToken);
      expect(a.sessionId).not.toBe(b.sessionId);
      expect(second.refreshToken).not.toBe(grant.refreshToken);
    });

    it('refuses garbage access tokens: unauthorized', async () => {
      const { identity, grant } = await signedIn();
      for (const token of ['', 'garbage', 'a.b.c', `${grant.accessToken}x`, grant.refreshToken]) {
        await expectCode(identity.authenticate(token), 'unauthorized');
      }
    });

    it('refuses unknown refresh tokens: invalid_refresh_token', async () => {
      const { identity, grant } = await signedIn();
      for (const token of ['', 'garbage', grant.accessToken, `${grant.refreshToken}x`]) {
        await expectCode(identity.refresh(token), 'invalid_refresh_token');
      }
    });

    it('rotates refresh tokens within the same sign-in session', async () => {
      const { identity, grant } = await signedIn();
      const before = await identity.authenticate(grant.accessToken);
      const next = await identity.refresh(grant.refreshToken);
      expect(next.refreshToken).not.toBe(grant.refreshToken);
      expect(next.user).toEqual(grant.user);
      const after = await identity.authenticate(next.accessToken);
      expect(after.userId).toBe(grant.user.id);
      expect(after.sessionId).toBe(before.sessionId);
      // The newest refresh token rotates again.
      const third = await identity.refresh(next.refreshToken);
      await expect(identity.authenticate(third.accessToken)).resolves.toMatchObject({
        userId: grant.user.id,
      });
    });

    it('detects reuse of a rotated refresh token and revokes the whole sign-in session', async () => {
      const { identity, grant } = await signedIn();
      const next = await identity.refresh(grant.refreshToken);
      await expectCode(identity.refresh(grant.refreshToken), 'invalid_refresh_token');
      // The legitimate holder's newest token dies with the session: the thief cannot keep it alive.
      await expectCode(identity.refresh(next.refreshToken), 'invalid_refresh_token');
      await expectCode(identity.authenticate(next.accessToken), 'unauthorized');
    });

    it('leaves other sign-in sessions alone when one is revoked for reuse', async () => {
      const { identity, grant } = await signedIn();
      const other = await identity.signIn('ada@example.com', password);
      await identity.refresh(grant.refreshToken);
      await expectCode(identity.refresh(grant.refreshToken), 'invalid_refresh_token');
      await expect(identity.authenticate(other.accessToken)).resolves.toMatchObject({
        userId: grant.user.id,
      });
      await expect(identity.refresh(other.refreshToken)).resolves.toBeDefined();
    });

    it('signs out: the same access token is refused and the refresh token is dead', async () => {
      const { identity, grant } = await signedIn();
      const other = await identity.signIn('ada@example.com', password);
      const principal = await identity.authenticate(grant.accessToken);
      await identity.signOut(principal);
      await expectCode(identity.authenticate(grant.accessToken), 'unauthorized');
      await expectCode(identity.refresh(grant.refreshToken), 'invalid_refresh_token');
      // Only that sign-in ended.
      await expect(identity.authenticate(other.accessToken)).resolves.toMatchObject({
        userId: grant.user.id,
      });
    });

    it('tells whether a sign-in session is active: until sign-out, or reuse of a refresh token', async () => {
      const { identity, grant } = await signedIn();
      const other = await identity.signIn('ada@example.com', password);
      const principal = await identity.authenticate(grant.accessToken);
      const otherPrincipal = await identity.authenticate(other.accessToken);
      const active = (p: { userId: string; sessionId: string }) =>
        identity.isSignInActive({ userId: p.userId, sessionId: p.sessionId });
      expect(await active(principal)).toBe(true);
      await identity.signOut(principal);
      expect(await active(principal)).toBe(false);
      expect(await active(otherPrincipal)).toBe(true);
      await identity.refresh(other.refreshToken);
      await expectCode(identity.refresh(other.refreshToken), 'invalid_refresh_token');
      expect(await active(otherPrincipal)).toBe(false);
    });

    it('answers a sign-in session as active past its access token’s expiry', async (ctx) => {
      const { identity, grant, advanceTime } = await signedIn();
      if (!advanceTime) return ctx.skip();
      const principal = await identity.authenticate(grant.accessToken);
      advanceTime(grant.expiresIn * 1000 + 1000);
      await expect(
        identity.isSignInActive({ userId: principal.userId, sessionId: principal.sessionId }),
      ).resolves.toBe(true);
    });

    it('refuses an expired access token, while the refresh token still works', async (ctx) => {
      const { identity, grant, advanceTime } = await signedIn();
      if (!advanceTime) return ctx.skip();
      advanceTime(grant.expiresIn * 1000 + 1000);
      await expectCode(identity.authenticate(grant.accessToken), 'unauthorized');
      const next = await identity.refresh(grant.refreshToken);
      await expect(identity.authenticate(next.accessToken)).resolves.toMatchObject({ userId: grant.user.id });
    });
  });
}
