import type {
  LocalCredential,
  LocalIdentityStore,
  LocalRefreshToken,
  LocalSignInSession,
} from '@browserdeck/adapters/identity-local';
import { DomainError } from '@browserdeck/domain';
import { describe, expect, it } from 'vitest';

/** A fresh, empty store under test. */
export interface LocalIdentityStoreFixture {
  store: LocalIdentityStore;
  /**
   * Makes whatever a credential of `userId` needs exist first (e.g. a `users` row in a database
   * whose credentials reference it). Optional: the suite calls it before adding each credential.
   */
  givenUser?(userId: string, email: string): Promise<void>;
}

const ALICE = '0190c000-0000-7000-8000-00000000000a';
const BOB = '0190c000-0000-7000-8000-00000000000b';
const base = Date.parse('2026-04-05T06:07:08.009Z');
const at = (seconds: number) => new Date(base + seconds * 1000);

/** Behaviour every `LocalIdentityStore` must have, including its atomic rules under concurrency. */
export function describeLocalIdentityStoreContract(
  name: string,
  options: { create: () => Promise<LocalIdentityStoreFixture> },
): void {
  describe(`LocalIdentityStore contract: ${name}`, () => {
    let seq = 0;
    const id = () => `0190c000-0000-7000-8000-${String(++seq).padStart(12, '0')}`;

    function credential(userId: string, email: string): LocalCredential {
      return {
        userId,
        email,
        passwordHash: `$argon2id$v=19$m=19456,t=2,p=1$${email}`,
        metadata: { plan: 'free', nested: { tags: ['a', 'b'], count: 2 }, unicode: 'Grüße ✓' },
        createdAt: at(1),
      };
    }

    async function withUser(fixture: LocalIdentityStoreFixture, userId: string, email: string) {
      await fixture.givenUser?.(userId, email);
      await fixture.store.addCredential(credential(userId, email));
    }

    async function withSession(
      fixture: LocalIdentityStoreFixture,
      userId = ALICE,
    ): Promise<LocalSignInSession> {
      const session: LocalSignInSession = { id: id(), userId, createdAt: at(2), revokedAt: null };
      await fixture.store.addSession(session);
      return session;
    }

    async function withToken(fixture: LocalIdentityStoreFixture, hash: string): Promise<LocalRefreshToken> {
      const session = await withSession(fixture);
      const token: LocalRefreshToken = {
        tokenHash: hash,
        sessionId: session.id,
        userId: ALICE,
        createdAt: at(3),
        expiresAt: at(3 + 30 * 86_400),
        usedAt: null,
      };
      await fixture.store.addRefreshToken(token);
      return token;
    }

    async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
      try {
        await promise;
        return undefined;
      } catch (error) {
        return error instanceof DomainError ? error.code : String(error);
      }
    }

    it('stores credentials and finds them by e-mail and by user id, to the millisecond', async () => {
      const fixture = await options.create();
      await withUser(fixture, ALICE, 'alice@example.com');
      const expected = credential(ALICE, 'alice@example.com');
      const byEmail = await fixture.store.findCredentialByEmail('alice@example.com');
      expect(byEmail).toEqual(expected);
      expect(byEmail?.createdAt.toISOString()).toBe(expected.createdAt.toISOString());
      expect(await fixture.store.findCredentialByUserId(ALICE)).toEqual(expected);
      expect(await fixture.store.findCredentialByEmail('bob@example.com')).toBeNull();
      expect(await fixture.store.findCredentialByUserId(BOB)).toBeNull();
    });

    it('refuses a second credential with a taken e-mail (email_taken) and keeps the first', async () => {
      const fixture = await options.create();
      await withUser(fixture, ALICE, 'same@example.com');
      await fixture.givenUser?.(BOB, 'same@example.com');
      expect(await codeOf(fixture.store.addCredential(credential(BOB, 'same@example.com')))).toBe(
        'email_taken',
      );
      expect((await fixture.store.findCredentialByEmail('same@example.com'))?.userId).toBe(ALICE);
      expect(await fixture.store.findCredentialByUserId(BOB)).toBeNull();
    });

    it('lets exactly one of 20 concurrent sign-ups of one e-mail win', async () => {
      const fixture = await options.create();
      const users = Array.from({ length: 20 }, () => id());
      for (const userId of users) await fixture.givenUser?.(userId, `${userId}@example.com`);
      const outcomes = await Promise.all(
        users.map((userId) => codeOf(fixture.store.addCredential(credential(userId, 'race@example.com')))),
      );
      expect(outcomes.filter((o) => o === undefined)).toHaveLength(1);
      expect(outcomes.filter((o) => o === 'email_taken')).toHaveLength(19);
      const winner = users[outcomes.indexOf(undefined)];
      expect((await fixture.store.findCredentialByEmail('race@example.com'))?.userId).toBe(winner);
    });

    it('stores sign-in sessions and finds them by id', async () => {
      const fixture = await options.create();
      await withUser(fixture, ALICE, 'alice@example.com');
      const session = await withSession(fixture);
      const { userDisabled, ...found } = (await fixture.store.findSession(session.id)) ?? {};
      expect(found).toEqual(session);
      // A store that reads the user too says the account is enabled; one that does not says nothing.
      expect(userDisabled === undefined || userDisabled === false).toBe(true);
      expect(await fixture.store.findSession(id())).toBeNull();
    });

    it('revokes a session once: the first revocation time stays', async () => {
      const fixture = await options.create();
      await withUser(fixture, ALICE, 'alice@example.com');
      const session = await withSession(fixture);
      const other = await withSession(fixture);
      await fixture.store.revokeSession(session.id, at(10));
      await fixture.store.revokeSession(session.id, at(20));
      expect((await fixture.store.findSession(session.id))?.revokedAt?.toISOString()).toBe(
        at(10).toISOString(),
      );
      expect((await fixture.store.findSession(other.id))?.revokedAt).toBeNull();
      await fixture.store.revokeSession(id(), at(30));
    });

    it('stores refresh tokens and finds them by hash', async () => {
      const fixture = await options.create();
      await withUser(fixture, ALICE, 'alice@example.com');
      const token = await withToken(fixture, 'a'.repeat(64));
      const found = await fixture.store.findRefreshToken(token.tokenHash);
      expect(found).toEqual(token);
      expect(found?.expiresAt.toISOString()).toBe(token.expiresAt.toISOString());
      expect(await fixture.store.findRefreshToken('b'.repeat(64))).toBeNull();
    });

    it('marks a refresh token used once: true, then false, keeping the first time', async () => {
      const fixture = await options.create();
      await withUser(fixture, ALICE, 'alice@example.com');
      const token = await withToken(fixture, 'c'.repeat(64));
      const untouched = await withToken(fixture, 'd'.repeat(64));
      expect(await fixture.store.markRefreshTokenUsed(token.tokenHash, at(40))).toBe(true);
      expect(await fixture.store.markRefreshTokenUsed(token.tokenHash, at(50))).toBe(false);
      expect((await fixture.store.findRefreshToken(token.tokenHash))?.usedAt?.toISOString()).toBe(
        at(40).toISOString(),
      );
      expect((await fixture.store.findRefreshToken(untouched.tokenHash))?.usedAt).toBeNull();
      expect(await fixture.store.markRefreshTokenUsed('e'.repeat(64), at(60))).toBe(false);
    });

    it('lets exactly one of 20 concurrent uses of one refresh token succeed', async () => {
      const fixture = await options.create();
      await withUser(fixture, ALICE, 'alice@example.com');
      const token = await withToken(fixture, 'f'.repeat(64));
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          fixture.store.markRefreshTokenUsed(token.tokenHash, at(100 + i)),
        ),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
      const usedAt = (await fixture.store.findRefreshToken(token.tokenHash))?.usedAt;
      expect(usedAt?.toISOString()).toBe(at(100 + results.indexOf(true)).toISOString());
    });
  });
}
