import { DomainError } from '@browserdeck/domain';
import { describeLocalIdentityStoreContract } from '@browserdeck/testing/adapters';
import { describe, expect, it } from 'vitest';
import { InMemoryLocalIdentityStore } from './InMemoryLocalIdentityStore.ts';
import type { LocalRefreshToken } from './LocalIdentityStore.ts';

const at = new Date('2026-01-01T00:00:00.000Z');
const later = new Date('2026-01-01T00:05:00.000Z');
const credential = {
  userId: 'u1',
  email: 'ada@example.com',
  passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA',
  metadata: { plan: 'free' },
  createdAt: at,
};
const token: LocalRefreshToken = {
  tokenHash: 'a'.repeat(64),
  sessionId: 's1',
  userId: 'u1',
  createdAt: at,
  expiresAt: later,
  usedAt: null,
};

describeLocalIdentityStoreContract('InMemoryLocalIdentityStore', {
  create: async () => ({ store: new InMemoryLocalIdentityStore() }),
});

describe('InMemoryLocalIdentityStore', () => {
  it('finds credentials by e-mail and by user id; email_taken on a second e-mail', async () => {
    const store = new InMemoryLocalIdentityStore();
    await store.addCredential(credential);
    expect(await store.findCredentialByEmail('ada@example.com')).toEqual(credential);
    expect(await store.findCredentialByUserId('u1')).toEqual(credential);
    expect(await store.findCredentialByEmail('bob@example.com')).toBeNull();
    expect(await store.findCredentialByUserId('u2')).toBeNull();
    const error = await store.addCredential({ ...credential, userId: 'u2' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ code: 'email_taken' });
    expect(await store.findCredentialByUserId('u2')).toBeNull();
  });

  it('revokes a session once, keeping the first time', async () => {
    const store = new InMemoryLocalIdentityStore();
    await store.addSession({ id: 's1', userId: 'u1', createdAt: at, revokedAt: null });
    expect(await store.findSession('s1')).toEqual({ id: 's1', userId: 'u1', createdAt: at, revokedAt: null });
    await store.revokeSession('s1', at);
    await store.revokeSession('s1', later);
    expect((await store.findSession('s1'))?.revokedAt).toEqual(at);
    await store.revokeSession('unknown', at);
    expect(await store.findSession('unknown')).toBeNull();
  });

  it('marks a refresh token used exactly once, even under concurrent calls', async () => {
    const store = new InMemoryLocalIdentityStore();
    await store.addRefreshToken(token);
    expect(await store.findRefreshToken(token.tokenHash)).toEqual(token);
    const results = await Promise.all(
      Array.from({ length: 10 }, () => store.markRefreshTokenUsed(token.tokenHash, at)),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    expect((await store.findRefreshToken(token.tokenHash))?.usedAt).toEqual(at);
    expect(await store.markRefreshTokenUsed('b'.repeat(64), at)).toBe(false);
  });

  it('hands out copies: changing a returned record changes nothing stored', async () => {
    const store = new InMemoryLocalIdentityStore();
    await store.addCredential(credential);
    await store.addRefreshToken(token);
    const found = await store.findCredentialByEmail('ada@example.com');
    (found!.metadata as Record<string, unknown>).plan = 'pro';
    (await store.findRefreshToken(token.tokenHash))!.expiresAt.setFullYear(2100);
    expect((await store.findCredentialByEmail('ada@example.com'))?.metadata).toEqual({ plan: 'free' });
    expect((await store.findRefreshToken(token.tokenHash))?.expiresAt).toEqual(later);
  });
});
