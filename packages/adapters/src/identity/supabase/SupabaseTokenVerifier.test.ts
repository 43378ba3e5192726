// nock is loaded before anything that fetches.

import { DomainError } from '@browserdeck/domain';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SupabaseTokenVerifier } from './SupabaseTokenVerifier.ts';

const URL_ = 'https://verifier.supabase.co';
const ISSUER = `${URL_}/auth/v1`;
const JWKS_PATH = '/auth/v1/.well-known/jwks.json';
const SECRET = 'super-secret-jwt-token-with-at-least-32-characters-long';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

function token(alg: string, kid?: string) {
  return new SignJWT({ email: 'ada@example.com', session_id: 'sess-1', role: 'authenticated' })
    .setProtectedHeader(kid ? { alg, kid, typ: 'JWT' } : { alg, typ: 'JWT' })
    .setIssuer(ISSUER)
    .setAudience('authenticated')
    .setSubject('user-1')
    .setIssuedAt()
    .setExpirationTime('1h');
}

async function keyPair(alg: 'ES256' | 'RS256', kid: string) {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  return { privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' } };
}

async function failure(promise: Promise<unknown>): Promise<DomainError> {
  const error = await promise.then(
    () => expect.fail('expected the call to fail'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

describe('SupabaseTokenVerifier', () => {
  it('verifies RS256 via JWKS, and refetches the JWKS for an unknown kid (key rotation)', async () => {
    const first = await keyPair('ES256', 'k1');
    const second = await keyPair('RS256', 'k2');
    const jwks = nock(URL_)
      .get(JWKS_PATH)
      .reply(200, { keys: [first.jwk] });
    const rotated = nock(URL_)
      .get(JWKS_PATH)
      .reply(200, { keys: [first.jwk, second.jwk] });
    const verifier = new SupabaseTokenVerifier({ url: URL_, anonKey: 'anon', jwksCooldownMs: 0 });
    await expect(
      verifier.verify(await token('ES256', 'k1').sign(first.privateKey), new Date()),
    ).resolves.toMatchObject({ userId: 'user-1', email: 'ada@example.com', sessionId: 'sess-1' });
    const claims = await verifier.verify(await token('RS256', 'k2').sign(second.privateKey), new Date());
    expect(claims.userId).toBe('user-1');
    expect(jwks.isDone() && rotated.isDone()).toBe(true);
  });

  it('accepts HS256 only when the legacy secret is configured', async () => {
    const hs = await token('HS256').sign(new TextEncoder().encode(SECRET));
    const withSecret = new SupabaseTokenVerifier({ url: URL_, anonKey: 'anon', jwtSecret: SECRET });
    await expect(withSecret.verify(hs, new Date())).resolves.toMatchObject({ sessionId: 'sess-1' });
    const withoutSecret = new SupabaseTokenVerifier({ url: URL_, anonKey: 'anon' });
    expect((await failure(withoutSecret.verify(hs, new Date()))).code).toBe('unauthorized');
    const wrongSecret = await token('HS256').sign(new TextEncoder().encode(`${SECRET}x`));
    expect((await failure(withSecret.verify(wrongSecret, new Date()))).code).toBe('unauthorized');
  });

  it('refuses a token without a session_id', async () => {
    const { privateKey, jwk } = await keyPair('ES256', 'k1');
    nock(URL_)
      .get(JWKS_PATH)
      .reply(200, { keys: [jwk] });
    const verifier = new SupabaseTokenVerifier({ url: URL_, anonKey: 'anon' });
    const noSession = await new SignJWT({ email: 'ada@example.com' })
      .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
      .setIssuer(ISSUER)
      .setAudience('authenticated')
      .setSubject('user-1')
      .setExpirationTime('1h')
      .sign(privateKey);
    expect((await failure(verifier.verify(noSession, new Date()))).code).toBe('unauthorized');
  });

  it('answers identity_unavailable when the JWKS cannot be fetched', async () => {
    const { privateKey } = await keyPair('ES256', 'k1');
    nock(URL_)
      .get(JWKS_PATH)
      .replyWithError(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }));
    const verifier = new SupabaseTokenVerifier({ url: URL_, anonKey: 'anon' });
    const error = await failure(verifier.verify(await token('ES256', 'k1').sign(privateKey), new Date()));
    expect(error.code).toBe('identity_unavailable');
  });
});
