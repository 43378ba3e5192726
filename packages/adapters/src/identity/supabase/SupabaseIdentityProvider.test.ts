// nock is loaded before anything that fetches.

import { DomainError } from '@browserdeck/domain';
import { ManualClock } from '@browserdeck/testing';
import { ANON_KEY, supabaseTestKit } from '@browserdeck/testing/identity-supabase';
import { generateKeyPair, SignJWT } from 'jose';
import nock from 'nock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { InMemoryRevokedSessionStore } from './InMemoryRevokedSessionStore.ts';
import { SupabaseIdentityProvider } from './SupabaseIdentityProvider.ts';

const PASSWORD = 'correct horse battery';
const BARE = 'https://bare.supabase.co';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());
afterAll(() => nock.enableNetConnect());

async function failure(promise: Promise<unknown>): Promise<DomainError> {
  const error = await promise.then(
    () => expect.fail('expected the call to fail'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

async function signedIn() {
  const kit = await supabaseTestKit();
  await kit.identity.signUp({ email: 'ada@example.com', password: PASSWORD, metadata: {} });
  return { ...kit, grant: await kit.identity.signIn('Ada@Example.com ', PASSWORD) };
}

/** A provider against a project with no fake behind it: each test scripts GoTrue's answers. */
function bare() {
  return new SupabaseIdentityProvider({
    url: BARE,
    anonKey: ANON_KEY,
    revokedSessions: new InMemoryRevokedSessionStore(),
    clock: new ManualClock(new Date()),
  });
}

describe('SupabaseIdentityProvider', () => {
  it('is named supabase', () => {
    expect(bare().name).toBe('supabase');
  });

  it('signs up with apikey, API version and metadata as data, and ends the session it was given', async () => {
    const { identity, gotrue } = await supabaseTestKit();
    const user = await identity.signUp({ email: ' Ada@Example.com', password: PASSWORD, metadata: { a: 1 } });
    expect(user).toEqual({ id: gotrue.users.get('ada@example.com')?.id, email: 'ada@example.com' });
    const [signup, logout] = [gotrue.requests[0]!, gotrue.requests[1]!];
    expect(signup.path).toBe('/auth/v1/signup');
    expect(signup.headers).toMatchObject({ apikey: ANON_KEY, 'x-supabase-api-version': '2024-01-01' });
    expect(signup.headers.authorization).toBeUndefined();
    expect(signup.body).toEqual({ email: 'ada@example.com', password: PASSWORD, data: { a: 1 } });
    expect(logout.path).toBe('/auth/v1/logout?scope=local');
    expect(gotrue.sessions.size).toBe(0);
  });

  it('with e-mail confirmation on: a bare user, email_taken for the obfuscated repeat, a sign-in refusal', async () => {
    const { identity, gotrue } = await supabaseTestKit();
    gotrue.confirmEmails = true;
    const user = await identity.signUp({ email: 'ada@example.com', password: PASSWORD, metadata: {} });
    expect(user.email).toBe('ada@example.com');
    const taken = await failure(
      identity.signUp({ email: 'ada@example.com', password: PASSWORD, metadata: {} }),
    );
    expect(taken.code).toBe('email_taken');
    const unconfirmed = await failure(identity.signIn('ada@example.com', PASSWORD));
    expect(unconfirmed.code).toBe('invalid_credentials');
    expect(unconfirmed.message).toMatch(/not been confirmed/);
  });

  it('answers a weak password with validation_failed on the password', async () => {
    const { identity } = await supabaseTestKit();
    const error = await failure(
      identity.signUp({ email: 'ada@example.com', password: 'short', metadata: {} }),
    );
    expect(error.code).toBe('validation_failed');
    expect(error.errors?.[0]?.path).toBe('password');
  });

  it('refuses a token signed by a foreign key with the right claims', async () => {
    const { identity, gotrue, grant } = await signedIn();
    const principal = await identity.authenticate(grant.accessToken);
    const { privateKey } = await generateKeyPair('ES256');
    const forged = await new SignJWT({ email: principal.email, session_id: principal.sessionId })
      .setProtectedHeader({ alg: 'ES256', kid: gotrue.kid })
      .setIssuer(gotrue.issuer)
      .setAudience('authenticated')
      .setSubject(principal.userId)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(privateKey);
    expect((await failure(identity.authenticate(forged))).code).toBe('unauthorized');
  });

  it('refuses an expired token', async () => {
    const { identity, clock, grant } = await signedIn();
    clock.advance(grant.expiresIn * 1000 + 1000);
    expect((await failure(identity.authenticate(grant.accessToken))).code).toBe('unauthorized');
  });

  it.each([
    ['audience', { aud: 'anon' }],
    ['issuer', { iss: 'https://other.supabase.co/auth/v1' }],
  ])('refuses a token with the wrong %s', async (_, claims) => {
    const { identity, gotrue, grant } = await signedIn();
    const principal = await identity.authenticate(grant.accessToken);
    const token = await gotrue.accessToken({ id: principal.userId, email: principal.email }, 'sess', claims);
    expect((await failure(identity.authenticate(token))).code).toBe('unauthorized');
  });

  it('signs out at GoTrue with the bearer token and refuses that token until it expires', async () => {
    const { identity, gotrue, grant, clock, revokedSessions } = await signedIn();
    const principal = await identity.authenticate(grant.accessToken);
    await identity.signOut(principal);
    const logout = gotrue.requests.at(-1)!;
    expect(logout.path).toBe('/auth/v1/logout?scope=local');
    expect(logout.headers.authorization).toBe(`Bearer ${grant.accessToken}`);
    expect(gotrue.sessions.has(principal.sessionId)).toBe(false);
    expect((await failure(identity.authenticate(grant.accessToken))).code).toBe('unauthorized');
    clock.advance(grant.expiresIn * 1000 - 1000);
    expect(await revokedSessions.isRevoked(principal.sessionId, clock.now())).toBe(true);
  });

  it('still ends the session when GoTrue logout fails: the refresh that follows is refused and logs out', async () => {
    const { identity, gotrue, grant } = await signedIn();
    const principal = await identity.authenticate(grant.accessToken);
    gotrue.down = true;
    await identity.signOut(principal);
    expect((await failure(identity.authenticate(grant.accessToken))).code).toBe('unauthorized');
    gotrue.down = false;
    expect((await failure(identity.refresh(grant.refreshToken))).code).toBe('invalid_refresh_token');
    expect(gotrue.requests.at(-1)?.path).toBe('/auth/v1/logout?scope=local');
    expect(gotrue.sessions.has(principal.sessionId)).toBe(false);
  });

  it('answers identity_unavailable when GoTrue refuses the connection or answers a non-JSON 5xx', async () => {
    const identity = bare();
    nock(BARE)
      .post('/auth/v1/token')
      .query(true)
      .replyWithError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
    expect((await failure(identity.signIn('ada@example.com', PASSWORD))).code).toBe('identity_unavailable');
    nock(BARE).post('/auth/v1/token').query(true).reply(502, '<html>Bad gateway</html>');
    expect((await failure(identity.refresh('abc'))).code).toBe('identity_unavailable');
  });

  it('hands out the grant even when the issued refresh token cannot be recorded', async () => {
    const broken = {
      remember: async () => {
        throw new Error('database down');
      },
      find: async () => null,
    };
    const { identity } = await supabaseTestKit({ issuedRefreshTokens: broken });
    await identity.signUp({ email: 'ada@example.com', password: PASSWORD, metadata: {} });
    const grant = await identity.signIn('ada@example.com', PASSWORD);
    const refreshed = await identity.refresh(grant.refreshToken);
    expect(refreshed.refreshToken).not.toBe(grant.refreshToken);
    expect((await identity.authenticate(refreshed.accessToken)).userId).toBe(grant.user.id);
  });

  it('hands out the grant when the revocation check after GoTrue rotated fails (authenticate checks again)', async () => {
    const revokedSessions = new InMemoryRevokedSessionStore();
    const { identity } = await supabaseTestKit({ revokedSessions });
    await identity.signUp({ email: 'ada@example.com', password: PASSWORD, metadata: {} });
    const grant = await identity.signIn('ada@example.com', PASSWORD);
    const isRevoked = revokedSessions.isRevoked.bind(revokedSessions);
    revokedSessions.isRevoked = async () => {
      revokedSessions.isRevoked = isRevoked;
      throw new Error('database down');
    };
    const refreshed = await identity.refresh(grant.refreshToken);
    expect(refreshed.refreshToken).not.toBe(grant.refreshToken);
    expect((await identity.authenticate(refreshed.accessToken)).userId).toBe(grant.user.id);
  });

  it('answers a reused refresh token with invalid_refresh_token even when its session cannot be looked up', async () => {
    const broken = {
      remember: async () => {},
      find: async () => {
        throw new Error('database down');
      },
    };
    const { identity } = await supabaseTestKit({ issuedRefreshTokens: broken });
    await identity.signUp({ email: 'ada@example.com', password: PASSWORD, metadata: {} });
    const grant = await identity.signIn('ada@example.com', PASSWORD);
    await identity.refresh(grant.refreshToken);
    expect((await failure(identity.refresh(grant.refreshToken))).code).toBe('invalid_refresh_token');
  });

  it('answers rate_limited with GoTrue Retry-After on 429', async () => {
    nock(BARE).post('/auth/v1/token').query(true).reply(
      429,
      { code: 'over_request_rate_limit', message: 'Request rate limit reached' },
      {
        'Retry-After': '17',
      },
    );
    const error = await failure(bare().signIn('ada@example.com', PASSWORD));
    expect(error.code).toBe('rate_limited');
    expect(error.retryAfterSec).toBe(17);
  });

  it.each([
    ['2024-01-01 { code, message }', { code: 'invalid_credentials', message: 'Invalid login credentials' }],
    [
      'legacy { error_code, msg }',
      { code: 400, error_code: 'invalid_credentials', msg: 'Invalid login credentials' },
    ],
    [
      'OAuth { error, error_description }',
      { error: 'invalid_grant', error_description: 'Invalid login credentials' },
    ],
  ])('reads sign-in refusals in the %s shape', async (_, body) => {
    nock(BARE).post('/auth/v1/token').query({ grant_type: 'password' }).reply(400, body);
    const error = await failure(bare().signIn('ada@example.com', PASSWORD));
    expect(error.code).toBe('invalid_credentials');
  });

  it.each([
    ['2024-01-01', { code: 'user_already_exists', message: 'User already registered' }],
    ['legacy', { code: 422, error_code: 'user_already_exists', msg: 'User already registered' }],
  ])('reads the %s shape of user_already_exists as email_taken', async (_, body) => {
    nock(BARE).post('/auth/v1/signup').reply(422, body);
    const error = await failure(
      bare().signUp({ email: 'ada@example.com', password: PASSWORD, metadata: {} }),
    );
    expect(error.code).toBe('email_taken');
  });

  it.each(['refresh_token_not_found', 'session_not_found', 'refresh_token_already_used'])(
    'answers %s with invalid_refresh_token',
    async (code) => {
      nock(BARE)
        .post('/auth/v1/token')
        .query({ grant_type: 'refresh_token' })
        .reply(400, { code, message: code });
      expect((await failure(bare().refresh('abcdefghijkl'))).code).toBe('invalid_refresh_token');
    },
  );
});
