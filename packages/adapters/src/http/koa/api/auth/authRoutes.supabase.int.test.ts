// nock is loaded (through FakeGoTrue) before anything that fetches.

import { ManualClock } from '@browserdeck/testing';
import {
  assertProblem,
  createTestApp,
  describeAuthContract,
  type TestApp,
} from '@browserdeck/testing/adapters';
import { ANON_KEY, FakeGoTrue } from '@browserdeck/testing/identity-supabase';
import { decodeJwt, decodeProtectedHeader, generateKeyPair, SignJWT } from 'jose';
import nock from 'nock';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { InMemoryIssuedRefreshTokenStore } from '../../../../identity/supabase/InMemoryIssuedRefreshTokenStore.ts';
import { InMemoryRevokedSessionStore } from '../../../../identity/supabase/InMemoryRevokedSessionStore.ts';
import { SupabaseIdentityProvider } from '../../../../identity/supabase/SupabaseIdentityProvider.ts';

beforeAll(() => {
  nock.disableNetConnect();
  // The app under test listens on 127.0.0.1; only GoTrue is faked.
  nock.enableNetConnect('127.0.0.1');
});
afterAll(() => {
  nock.cleanAll();
  nock.enableNetConnect();
});

/** The app with SupabaseIdentityProvider on a fresh fake GoTrue project, sharing the app's clock. */
async function supabaseWorld() {
  const clock = new ManualClock();
  const gotrue = await new FakeGoTrue(clock).start();
  const revokedSessions = new InMemoryRevokedSessionStore();
  const issuedRefreshTokens = new InMemoryIssuedRefreshTokenStore();
  const t = await createTestApp({
    clock,
    identity: () =>
      new SupabaseIdentityProvider({
        url: gotrue.url,
        anonKey: ANON_KEY,
        revokedSessions,
        issuedRefreshTokens,
        clock,
      }),
  });
  return { t, gotrue, revokedSessions, accessTokenTtlSec: gotrue.accessTokenTtlSec };
}

/** The claims of `accessToken` signed ES256 by another key, under the project's own `kid`. */
async function forgeSupabaseToken(accessToken: string): Promise<string> {
  const { privateKey } = await generateKeyPair('ES256');
  const { kid } = decodeProtectedHeader(accessToken);
  return new SignJWT(decodeJwt(accessToken))
    .setProtectedHeader({ alg: 'ES256', kid, typ: 'JWT' })
    .sign(privateKey);
}

describeAuthContract('supabase (SupabaseIdentityProvider on a fake GoTrue)', {
  setUp: supabaseWorld,
  forgeToken: (_world, accessToken) => forgeSupabaseToken(accessToken),
});

type World = Awaited<ReturnType<typeof supabaseWorld>>;

describe('HTTP auth on Supabase: what GoTrue is sent and how its answers are mapped', () => {
  let w: World;
  let t: TestApp<SupabaseIdentityProvider>;
  beforeEach(async () => {
    w = await supabaseWorld();
    t = w.t;
  });
  afterEach(() => t.close());

  const post = (path: string, json?: unknown, token?: string) =>
    t.request(path, { method: 'POST', ...(json === undefined ? {} : { json }), ...(token ? { token } : {}) });
  const sentTo = (path: string) => w.gotrue.requests.filter((r) => r.path === path);

  it('signs up at GoTrue with the anon key, the API version and metadata as data, then ends the session it got', async () => {
    const res = await post('/v1/auth/signup', {
      email: ' Ada@Example.com',
      password: 'long enough',
      metadata: { plan: 'pro' },
    });
    expect(res.status).toBe(201);
    const { user } = (await res.json()) as { user: { id: string; email: string } };
    expect(user).toEqual({ id: w.gotrue.users.get('ada@example.com')?.id, email: 'ada@example.com' });
    expect(w.gotrue.requests.map((r) => r.path)).toEqual(['/auth/v1/signup', '/auth/v1/logout?scope=local']);
    const [signup] = sentTo('/auth/v1/signup');
    expect(signup?.headers).toMatchObject({ apikey: ANON_KEY, 'x-supabase-api-version': '2024-01-01' });
    expect(signup?.headers.authorization).toBeUndefined();
    expect(signup?.body).toEqual({
      email: 'ada@example.com',
      password: 'long enough',
      data: { plan: 'pro' },
    });
    expect(w.gotrue.sessions.size).toBe(0);
  });

  it('signs in with the password grant and hands GoTrue’s tokens through unchanged', async () => {
    await post('/v1/auth/signup', { email: 'bea@example.com', password: 'long enough' });
    const res = await post('/v1/auth/signin', { email: 'BEA@example.com ', password: 'long enough' });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { access_token: string; refresh_token: string };
    const [grant] = sentTo('/auth/v1/token?grant_type=password');
    expect(grant?.body).toEqual({ email: 'bea@example.com', password: 'long enough' });
    expect(w.gotrue.refreshTokens.has(body.refresh_token)).toBe(true);
    expect(decodeJwt(body.access_token)).toMatchObject({ iss: w.gotrue.issuer, aud: 'authenticated' });
  });

  it('refuses a token signed by a foreign key (same kid) and one for another project', async () => {
    const user = await t.signUpAndIn();
    await assertProblem(
      await t.request('/v1/auth/me', { token: await forgeSupabaseToken(user.accessToken) }),
      401,
      'unauthorized',
    );
    const claims = decodeJwt(user.accessToken);
    const otherProject = await w.gotrue.accessToken(
      { id: user.id, email: user.email },
      String(claims.session_id),
      { iss: 'https://other.supabase.co/auth/v1' },
    );
    await assertProblem(await t.request('/v1/auth/me', { token: otherProject }), 401, 'unauthorized');
    const anonRole = await w.gotrue.accessToken(
      { id: user.id, email: user.email },
      String(claims.session_id),
      {
        aud: 'anon',
      },
    );
    await assertProblem(await t.request('/v1/auth/me', { token: anonRole }), 401, 'unauthorized');
  });

  it('refuses a token once its exp has passed (GoTrue’s own lifetime)', async () => {
    const user = await t.signUpAndIn();
    const { exp } = decodeJwt(user.accessToken);
    expect(exp).toBe(Math.floor(t.clock.now().getTime() / 1000) + w.gotrue.accessTokenTtlSec);
    t.clock.advance(w.gotrue.accessTokenTtlSec * 1000);
    await assertProblem(await t.request('/v1/auth/me', { token: user.accessToken }), 401, 'unauthorized');
  });

  it('signs out at GoTrue with the bearer’s token; the same access token is 401 after, GoTrue not asked again', async () => {
    const user = await t.signUpAndIn();
    expect((await post('/v1/auth/signout', undefined, user.accessToken)).status).toBe(200);
    // The first logout ended the session sign-up was given; the last one is the sign-out's.
    const logout = sentTo('/auth/v1/logout?scope=local').at(-1);
    expect(logout?.headers.authorization).toBe(`Bearer ${user.accessToken}`);
    expect(logout?.headers.apikey).toBe(ANON_KEY);
    const sessionId = String(decodeJwt(user.accessToken).session_id);
    expect(w.gotrue.sessions.has(sessionId)).toBe(false);
    const before = w.gotrue.requests.length;
    const problem = await assertProblem(
      await t.request('/v1/auth/me', { token: user.accessToken }),
      401,
      'unauthorized',
    );
    expect(problem.detail).toBe('The access token was revoked.');
    expect(w.gotrue.requests.length).toBe(before);
    expect(await w.revokedSessions.isRevoked(sessionId, t.clock.now())).toBe(true);
  });

  it('still refuses the access token when GoTrue’s logout fails, and ends the session at the next refresh', async () => {
    const user = await t.signUpAndIn();
    w.gotrue.down = true;
    expect((await post('/v1/auth/signout', undefined, user.accessToken)).status).toBe(200);
    w.gotrue.down = false;
    await assertProblem(await t.request('/v1/auth/me', { token: user.accessToken }), 401, 'unauthorized');
    // GoTrue still grants the refresh; we refuse it and log the new session out.
    await assertProblem(
      await post('/v1/auth/refresh', { refresh_token: user.refreshToken }),
      401,
      'invalid_refresh_token',
    );
    expect(w.gotrue.sessions.size).toBe(0);
  });

  describe('GoTrue unavailable or limiting', () => {
    it.each([
      ['unreachable (connection reset)', (g: FakeGoTrue) => (g.unreachable = true)],
      ['answering a non-JSON 503 (proxy)', (g: FakeGoTrue) => (g.down = true)],
      [
        'answering a JSON 500',
        (g: FakeGoTrue) => g.answerNext(500, { code: 'unexpected_failure', message: 'x' }),
      ],
      ['answering a 200 that is not JSON', (g: FakeGoTrue) => g.answerNext(200, '<html>maintenance</html>')],
    ])('answers sign-in with 503 identity_unavailable when GoTrue is %s', async (_label, breakIt) => {
      breakIt(w.gotrue);
      const problem = await assertProblem(
        await post('/v1/auth/signin', { email: 'ann@example.com', password: 'long enough' }),
        503,
        'identity_unavailable',
      );
      expect(problem.detail).toBe('The identity provider could not be reached.');
      expect(sentTo('/auth/v1/token?grant_type=password')).toHaveLength(1);
    });

    it('answers sign-up and refresh with 503 identity_unavailable too', async () => {
      w.gotrue.unreachable = true;
      await assertProblem(
        await post('/v1/auth/signup', { email: 'ann@example.com', password: 'long enough' }),
        503,
        'identity_unavailable',
      );
      await assertProblem(
        await post('/v1/auth/refresh', { refresh_token: 'rt-any' }),
        503,
        'identity_unavailable',
      );
    });

    it('passes GoTrue’s 429 on as 429 rate_limited with its Retry-After (60 when absent)', async () => {
      w.gotrue.answerNext(
        429,
        { code: 'over_request_rate_limit', message: 'Request rate limit reached' },
        {
          'Retry-After': '17',
        },
      );
      const limited = await post('/v1/auth/signin', { email: 'ann@example.com', password: 'long enough' });
      expect(limited.headers.get('retry-after')).toBe('17');
      await assertProblem(limited, 429, 'rate_limited');
      w.gotrue.answerNext(429, { code: 'over_email_send_rate_limit', message: 'Email rate limit exceeded' });
      const again = await post('/v1/auth/signup', { email: 'ann@example.com', password: 'long enough' });
      expect(again.headers.get('retry-after')).toBe('60');
      await assertProblem(again, 429, 'rate_limited');
    });
  });

  describe.each([
    ['current error bodies ({ code, message })', false],
    ['legacy error bodies ({ code: <status>, error_code, msg })', true],
  ])('GoTrue answering %s', (_label, legacy) => {
    beforeEach(() => {
      w.gotrue.legacyErrors = legacy;
    });

    it('maps a taken e-mail to 409 email_taken', async () => {
      await post('/v1/auth/signup', { email: 'cat@example.com', password: 'long enough' });
      await assertProblem(
        await post('/v1/auth/signup', { email: 'cat@example.com', password: 'long enough' }),
        409,
        'email_taken',
      );
    });

    it('maps wrong and unknown credentials alike to 401 invalid_credentials', async () => {
      await post('/v1/auth/signup', { email: 'cat@example.com', password: 'long enough' });
      const wrong = await assertProblem(
        await post('/v1/auth/signin', { email: 'cat@example.com', password: 'not the one' }),
        401,
        'invalid_credentials',
      );
      const unknown = await assertProblem(
        await post('/v1/auth/signin', { email: 'nobody@example.com', password: 'not the one' }),
        401,
        'invalid_credentials',
      );
      expect(wrong.detail).toBe('E-mail or password is wrong.');
      expect(unknown.detail).toBe(wrong.detail);
    });

    it('maps an unconfirmed e-mail to 401 invalid_credentials with its own detail', async () => {
      w.gotrue.confirmEmails = true;
      await post('/v1/auth/signup', { email: 'cat@example.com', password: 'long enough' });
      const problem = await assertProblem(
        await post('/v1/auth/signin', { email: 'cat@example.com', password: 'long enough' }),
        401,
        'invalid_credentials',
      );
      expect(problem.detail).toBe('The e-mail address has not been confirmed yet.');
    });

    it.each([
      ['refresh_token_not_found', 400, 'Invalid Refresh Token: Refresh Token Not Found'],
      ['refresh_token_already_used', 400, 'Invalid Refresh Token: Already Used'],
      ['session_not_found', 403, 'Session from session_id claim in JWT does not exist'],
    ])('maps a refresh refused with %s to 401 invalid_refresh_token', async (code, status, message) => {
      w.gotrue.answerNext(
        status,
        legacy ? { code: status, error_code: code, msg: message } : { code, message },
      );
      const problem = await assertProblem(
        await post('/v1/auth/refresh', { refresh_token: 'rt-some' }),
        401,
        'invalid_refresh_token',
      );
      expect(problem.detail).toBe('The refresh token is not valid.');
      expect(sentTo('/auth/v1/token?grant_type=refresh_token').map((r) => r.body)).toEqual([
        { refresh_token: 'rt-some' },
      ]);
    });

    it('revokes the session’s access tokens when GoTrue reports a reused refresh token', async () => {
      const user = await t.signUpAndIn();
      expect((await post('/v1/auth/refresh', { refresh_token: user.refreshToken })).status).toBe(200);
      await assertProblem(
        await post('/v1/auth/refresh', { refresh_token: user.refreshToken }),
        401,
        'invalid_refresh_token',
      );
      await assertProblem(await t.request('/v1/auth/me', { token: user.accessToken }), 401, 'unauthorized');
    });
  });

  describe('GoTrue answering an OAuth error body ({ error, error_description }, older token endpoint)', () => {
    it('maps invalid_grant on sign-in to 401 invalid_credentials with the usual detail', async () => {
      w.gotrue.answerNext(400, { error: 'invalid_grant', error_description: 'Invalid login credentials' });
      const problem = await assertProblem(
        await post('/v1/auth/signin', { email: 'eli@example.com', password: 'long enough' }),
        401,
        'invalid_credentials',
      );
      expect(problem.detail).toBe('E-mail or password is wrong.');
    });

    it('maps invalid_grant on refresh to 401 invalid_refresh_token', async () => {
      w.gotrue.answerNext(400, { error: 'invalid_grant', error_description: 'Invalid Refresh Token' });
      await assertProblem(
        await post('/v1/auth/refresh', { refresh_token: 'rt-old' }),
        401,
        'invalid_refresh_token',
      );
    });

    it('maps an unconfirmed e-mail told in words only to its own detail', async () => {
      w.gotrue.answerNext(400, { error: 'invalid_grant', error_description: 'Email not confirmed' });
      const problem = await assertProblem(
        await post('/v1/auth/signin', { email: 'eli@example.com', password: 'long enough' }),
        401,
        'invalid_credentials',
      );
      expect(problem.detail).toBe('The e-mail address has not been confirmed yet.');
    });
  });

  it('answers 500 for a GoTrue refusal with no meaning to the client (sign-ups disabled), without its words', async () => {
    w.gotrue.answerNext(422, { code: 'signup_disabled', message: 'Signups not allowed for this instance' });
    const problem = await assertProblem(
      await post('/v1/auth/signup', { email: 'fay@example.com', password: 'long enough' }),
      500,
      'internal',
    );
    expect(problem.detail).not.toContain('Signups not allowed');
  });

  describe('sign-up with e-mail confirmation on', () => {
    beforeEach(() => {
      w.gotrue.confirmEmails = true;
    });

    it('answers 201 from the bare user GoTrue returns, and logs nothing out', async () => {
      const res = await post('/v1/auth/signup', { email: 'dan@example.com', password: 'long enough' });
      expect(res.status).toBe(201);
      expect(await res.json()).toEqual({
        user: { id: w.gotrue.users.get('dan@example.com')?.id, email: 'dan@example.com' },
      });
      expect(w.gotrue.requests.map((r) => r.path)).toEqual(['/auth/v1/signup']);
    });

    it('answers 409 email_taken for the obfuscated user with no identities GoTrue returns for a known e-mail', async () => {
      await post('/v1/auth/signup', { email: 'dan@example.com', password: 'long enough' });
      await assertProblem(
        await post('/v1/auth/signup', { email: 'dan@example.com', password: 'another one' }),
        409,
        'email_taken',
      );
      expect(w.gotrue.users.size).toBe(1);
      expect(await t.users.findById(w.gotrue.users.get('dan@example.com')?.id ?? '')).not.toBeNull();
    });
  });
});
