import { createHash, createHmac, generateKeyPairSync } from 'node:crypto';
import { DomainError, type TokenGrant } from '@browserdeck/domain';
import { describeIdentityProviderContract, ManualClock, SequentialIdGenerator } from '@browserdeck/testing';
import { parseOptions } from '@node-rs/argon2';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { describe, expect, it, vi } from 'vitest';
import { Argon2PasswordHasher } from './Argon2PasswordHasher.ts';
import { InMemoryLocalIdentityStore } from './InMemoryLocalIdentityStore.ts';
import { importJwtKeys } from './importJwtKeys.ts';
import { JwtTokenService } from './JwtTokenService.ts';
import { LocalIdentityProvider, type LocalIdentityProviderDeps } from './LocalIdentityProvider.ts';
import type { LocalIdentityStore } from './LocalIdentityStore.ts';

const keys = await importJwtKeys(newEd25519Pem());
/** Real argon2id, cheap enough for many tests; one test below uses the contract's parameters. */
const CHEAP = { memoryCost: 64, timeCost: 1, parallelism: 1 };
const PASSWORD = 'correct horse battery';

function newEd25519Pem(): string {
  return generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
}

function build(overrides: Partial<LocalIdentityProviderDeps> = {}) {
  const clock = new ManualClock('2026-01-01T00:00:00.000Z');
  const store = new InMemoryLocalIdentityStore();
  const passwords = new Argon2PasswordHasher(CHEAP);
  const tokens = new JwtTokenService({ keys });
  const deps: LocalIdentityProviderDeps = {
    store,
    clock,
    ids: new SequentialIdGenerator(),
    tokens,
    passwords,
    ...overrides,
  };
  return { identity: new LocalIdentityProvider(deps), clock, store, passwords, tokens };
}

async function signedIn(overrides: Partial<LocalIdentityProviderDeps> = {}) {
  const built = build(overrides);
  const user = await built.identity.signUp({ email: 'ada@example.com', password: PASSWORD, metadata: {} });
  const grant = await built.identity.signIn('ada@example.com', PASSWORD);
  return { ...built, user, grant };
}

async function failure(promise: Promise<unknown>): Promise<DomainError> {
  const error = await promise.then(
    () => expect.fail('expected the call to fail'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

describeIdentityProviderContract('LocalIdentityProvider (in-memory store)', {
  create: async () => {
    const { identity, clock } = build();
    return { identity, advanceTime: (ms) => clock.advance(ms) };
  },
});

describe('LocalIdentityProvider', () => {
  it('is named local', () => {
    expect(build().identity.name).toBe('local');
  });

  it('stores an argon2id hash with the contract parameters (m=19456, t=2, p=1) by default', async () => {
    const { identity, store } = build({ passwords: new Argon2PasswordHasher() });
    const user = await identity.signUp({ email: 'ada@example.com', password: PASSWORD, metadata: { a: 1 } });
    const stored = await store.findCredentialByEmail('ada@example.com');
    expect(stored?.userId).toBe(user.id);
    expect(stored?.metadata).toEqual({ a: 1 });
    expect(stored?.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(stored?.passwordHash).not.toContain(PASSWORD);
    await expect(identity.signIn('ada@example.com', PASSWORD)).resolves.toMatchObject({ user });
  });

  it('issues EdDSA access tokens with the documented claims and lifetime', async () => {
    const { grant, user, clock } = await signedIn({ accessTokenTtlSec: 600 });
    const header = decodeProtectedHeader(grant.accessToken);
    expect(header).toMatchObject({ alg: 'EdDSA', typ: 'at+jwt', kid: keys.keyId });
    const claims = decodeJwt(grant.accessToken);
    expect(claims).toMatchObject({
      sub: user.id,
      email: 'ada@example.com',
      iss: 'browserdeck',
      aud: 'browserdeck',
    });
    expect(typeof claims.sid).toBe('string');
    expect(typeof claims.jti).toBe('string');
    expect(claims.iat).toBe(clock.now().getTime() / 1000);
    expect(claims.exp! - claims.iat!).toBe(600);
    expect(grant.expiresIn).toBe(600);
    expect(grant.expiresAt.getTime()).toBe(claims.exp! * 1000);
    expect(grant.refreshToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('refuses an access token once it has expired by the injected clock', async () => {
    const { identity, grant, clock } = await signedIn();
    clock.advance(899_000);
    await expect(identity.authenticate(grant.accessToken)).resolves.toMatchObject({
      email: 'ada@example.com',
    });
    clock.advance(1_000);
    const error = await failure(identity.authenticate(grant.accessToken));
    expect(error.code).toBe('unauthorized');
    expect(error.message).toBe('The access token has expired.');
  });

  it('refuses a token with valid claims signed by a foreign Ed25519 key', async () => {
    const { identity, grant } = await signedIn();
    const foreign = new JwtTokenService({ keys: await importJwtKeys(newEd25519Pem()) });
    const principal = await identity.authenticate(grant.accessToken);
    const forged = await foreign.sign(
      { userId: principal.userId, email: principal.email, sessionId: principal.sessionId, tokenId: 'x' },
      new ManualClock().now(),
      900,
    );
    const error = await failure(identity.authenticate(forged.token));
    expect(error.code).toBe('unauthorized');
    expect(error.message).toBe('The access token is invalid.');
  });

  it('refuses alg "none" and HS256 signed with the public key as secret', async () => {
    const { identity, grant } = await signedIn();
    const claims = decodeJwt(grant.accessToken);
    const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const hs256 = (input: string) =>
      createHmac('sha256', keys.publicKeyPem).update(input).digest('base64url');
    const unsigned = `${b64({ alg: 'none', typ: 'at+jwt' })}.${b64(claims)}.`;
    const confusedInput = `${b64({ alg: 'HS256', typ: 'at+jwt', kid: keys.keyId })}.${b64(claims)}`;
    const confused = `${confusedInput}.${hs256(confusedInput)}`;
    // The genuine header (alg EdDSA) over an HMAC made with the public key.
    const genuineInput = grant.accessToken.split('.').slice(0, 2).join('.');
    const reSigned = `${genuineInput}.${hs256(genuineInput)}`;
    for (const token of [unsigned, confused, reSigned]) {
      const error = await failure(identity.authenticate(token));
      expect(error.code).toBe('unauthorized');
      expect(error.message).toBe('The access token is invalid.');
    }
    // The genuine token with those very claims is accepted: the refusals above are about the signature.
    await expect(identity.authenticate(grant.accessToken)).resolves.toMatchObject({ userId: claims.sub });
  });

  it('refuses tokens from this key meant for another issuer or audience', async () => {
    const { identity, grant } = await signedIn();
    const principal = await identity.authenticate(grant.accessToken);
    const claims = {
      userId: principal.userId,
      email: principal.email,
      sessionId: principal.sessionId,
      tokenId: 'x',
    };
    const now = new ManualClock().now();
    for (const other of [
      new JwtTokenService({ keys, issuer: 'someone-else' }),
      new JwtTokenService({ keys, audience: 'someone-else' }),
    ]) {
      const { token } = await other.sign(claims, now, 900);
      expect((await failure(identity.authenticate(token))).code).toBe('unauthorized');
    }
  });

  it('refuses an access token whose sign-in session does not exist', async () => {
    const { identity, tokens, user, clock } = await signedIn();
    const { token } = await tokens.sign(
      { userId: user.id, email: user.email, sessionId: 'no-such-session', tokenId: 'x' },
      clock.now(),
      900,
    );
    const error = await failure(identity.authenticate(token));
    expect(error.code).toBe('unauthorized');
    expect(error.message).toBe('The access token was revoked.');
  });

  it('refuses an expired refresh token', async () => {
    const { identity, grant, clock } = await signedIn({ refreshTokenTtlSec: 3600 });
    clock.advance(3_599_000);
    const next = await identity.refresh(grant.refreshToken);
    clock.advance(3_600_000);
    expect((await failure(identity.refresh(next.refreshToken))).code).toBe('invalid_refresh_token');
  });

  it('lets exactly one of several concurrent refreshes of one token succeed', async () => {
    const { identity, grant } = await signedIn();
    const results = await Promise.allSettled(
      Array.from({ length: 5 }, () => identity.refresh(grant.refreshToken)),
    );
    const fulfilled = results.filter((r) => r.status === 'fulfilled');
    const rejected = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(fulfilled).toHaveLength(1);
    expect(rejected).toHaveLength(4);
    for (const r of rejected) expect(r.reason).toMatchObject({ code: 'invalid_refresh_token' });
    // The losers count as reuse, so the sign-in session ends: the winner's new pair is dead too.
    const winner = (fulfilled[0] as PromiseFulfilledResult<TokenGrant>).value;
    expect((await failure(identity.refresh(winner.refreshToken))).code).toBe('invalid_refresh_token');
  });

  it('treats losing the mark-used race as reuse: the sign-in session is revoked', async () => {
    const { identity, grant, store } = await signedIn();
    const sessionId = (await identity.authenticate(grant.accessToken)).sessionId;
    // Another instance used the token between our read and our write.
    vi.spyOn(store, 'markRefreshTokenUsed').mockResolvedValueOnce(false);
    expect((await failure(identity.refresh(grant.refreshToken))).code).toBe('invalid_refresh_token');
    expect((await store.findSession(sessionId))?.revokedAt).toBeInstanceOf(Date);
    expect((await failure(identity.authenticate(grant.accessToken))).code).toBe('unauthorized');
  });

  it('does the same password work for an unknown e-mail as for a wrong password', async () => {
    const { identity, passwords, store } = build();
    await identity.signUp({ email: 'ada@example.com', password: PASSWORD, metadata: {} });
    const userHash = (await store.findCredentialByEmail('ada@example.com'))!.passwordHash;
    const hash = vi.spyOn(passwords, 'hash');
    const verify = vi.spyOn(passwords, 'verify');

    const wrong = await failure(identity.signIn('ada@example.com', 'wrong password'));
    expect(verify).toHaveBeenCalledTimes(1);
    expect(verify).toHaveBeenLastCalledWith(userHash, 'wrong password');

    const unknown = await failure(identity.signIn('nobody@example.com', 'wrong password'));
    expect(unknown.code).toBe(wrong.code);
    expect(unknown.message).toBe(wrong.message);
    expect(verify).toHaveBeenCalledTimes(2);
    const dummyHash = verify.mock.calls[1]![0];
    expect(verify.mock.calls[1]![1]).toBe('wrong password');
    expect(dummyHash).not.toBe(userHash);
    expect(parseOptions(dummyHash)).toEqual(parseOptions(userHash));

    // The dummy hash is made once, then reused.
    await failure(identity.signIn('nobody-else@example.com', PASSWORD));
    expect(hash).toHaveBeenCalledTimes(1);
    expect(verify).toHaveBeenCalledTimes(3);
    expect(verify.mock.calls[2]![0]).toBe(dummyHash);
    for (const r of verify.mock.results) await expect(r.value).resolves.toBe(false);
  });

  it('never hands the store a refresh token in plaintext', async () => {
    const inner = new InMemoryLocalIdentityStore();
    const seen: unknown[] = [];
    const store = new Proxy(inner, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          seen.push(args);
          return value.apply(target, args);
        };
      },
    }) as LocalIdentityStore;
    const { identity } = build({ store });
    await identity.signUp({ email: 'ada@example.com', password: PASSWORD, metadata: {} });
    const grant = await identity.signIn('ada@example.com', PASSWORD);
    const next = await identity.refresh(grant.refreshToken);
    await failure(identity.refresh(grant.refreshToken));

    const everything = JSON.stringify(seen);
    for (const token of [grant.refreshToken, next.refreshToken]) {
      expect(everything).not.toContain(token);
      const digest = createHash('sha256').update(token).digest('hex');
      expect(everything).toContain(digest);
      expect(await inner.findRefreshToken(digest)).toMatchObject({ tokenHash: digest });
    }
    expect(everything).not.toContain(PASSWORD);
  });

  it('normalizes e-mails on sign-up and sign-in', async () => {
    const { identity } = build();
    const user = await identity.signUp({ email: ' Ada@Example.COM ', password: PASSWORD, metadata: {} });
    expect(user.email).toBe('ada@example.com');
    await expect(identity.signIn('ADA@example.com', PASSWORD)).resolves.toMatchObject({ user });
  });
});
