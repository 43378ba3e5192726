import { TokenResponse } from '@browserdeck/adapters/http-koa';
import type { IdentityProvider } from '@browserdeck/domain';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { assertProblem } from './assertProblem.ts';
import type { TestApp } from './TestApp.ts';

type UserJson = { id: string; email: string };
type SyncJson = { user: UserJson; project: { id: string; name: string; slug: string } };
type TokenJson = { access_token: string; refresh_token: string; user: UserJson };

/** One running app with the identity provider under test. */
export interface AuthContractWorld {
  t: TestApp<IdentityProvider>;
  /** Lifetime of the access tokens the provider hands out, in seconds. */
  accessTokenTtlSec: number;
}

/** How to set up a world for each test, and what the provider can do beyond the contract. */
export interface AuthContractOptions<W extends AuthContractWorld> {
  setUp: () => Promise<W>;
  /**
   * The same claims as `accessToken`, signed by a key the app does not trust (with the same key id
   * where the provider uses one). Omitted for providers whose tokens are not signed.
   */
  forgeToken?: (world: W, accessToken: string) => Promise<string>;
}

/**
 * The HTTP auth contract of http-api.md §3 through the real Koa app, for any identity provider: what a
 * client sees must not depend on `IDENTITY_PROVIDER`.
 */
export function describeAuthContract<W extends AuthContractWorld>(
  name: string,
  options: AuthContractOptions<W>,
): void {
  describe(`HTTP auth contract: ${name}`, () => {
    let world: W;
    let t: TestApp<IdentityProvider>;
    beforeEach(async () => {
      world = await options.setUp();
      t = world.t;
    });
    afterEach(() => t.close());

    const post = (path: string, json?: unknown, token?: string) =>
      t.request(path, {
        method: 'POST',
        ...(json === undefined ? {} : { json }),
        ...(token ? { token } : {}),
      });

    describe('POST /v1/auth/signup', () => {
      it('creates a user with a trimmed, lower-cased e-mail and answers 201 { user }', async () => {
        const res = await post('/v1/auth/signup', {
          email: '  Alice@Example.COM ',
          password: 'long enough',
          metadata: { displayName: 'Alice' },
        });
        expect(res.status).toBe(201);
        const body = (await res.json()) as { user: UserJson };
        expect(body).toEqual({ user: { id: expect.any(String), email: 'alice@example.com' } });
        expect((await t.users.findById(body.user.id))?.email).toBe('alice@example.com');
      });

      it('answers 409 email_taken for an existing e-mail, whatever its case', async () => {
        await post('/v1/auth/signup', { email: 'bob@example.com', password: 'long enough' });
        await assertProblem(
          await post('/v1/auth/signup', { email: 'BOB@example.com', password: 'another one' }),
          409,
          'email_taken',
        );
      });

      it.each([
        ['a bad e-mail', { email: 'not-an-address', password: 'long enough' }, 'email'],
        ['a short password', { email: 'c@example.com', password: 'short' }, 'password'],
        ['a too long password', { email: 'c@example.com', password: 'x'.repeat(257) }, 'password'],
        ['a too long e-mail', { email: `${'a'.repeat(250)}@example.com`, password: 'long enough' }, 'email'],
        [
          'metadata over 8 KiB',
          { email: 'c@example.com', password: 'long enough', metadata: { x: 'y'.repeat(8200) } },
          'metadata',
        ],
        [
          'metadata not an object',
          { email: 'c@example.com', password: 'long enough', metadata: [1] },
          'metadata',
        ],
        [
          'a metadata key __proto__ (as JSON sends it)',
          JSON.parse('{"email":"c@example.com","password":"long enough","metadata":{"__proto__":{"a":1}}}'),
          'metadata.__proto__',
        ],
        ['an unknown field', { email: 'c@example.com', password: 'long enough', name: 'C' }, 'name'],
        ['a missing password', { email: 'c@example.com' }, 'password'],
      ])('answers 400 validation_failed naming the field for %s', async (_label, json, field) => {
        const problem = await assertProblem(await post('/v1/auth/signup', json), 400, 'validation_failed');
        expect(problem.errors?.map((e) => e.path)).toContain(field);
      });

      it('accepts metadata of exactly the limit', async () => {
        // {"x":"…"} is 8 bytes of framing.
        const metadata = { x: 'y'.repeat(8 * 1024 - 8) };
        expect(JSON.stringify(metadata).length).toBe(8 * 1024);
        expect(
          (await post('/v1/auth/signup', { email: 'm@example.com', password: 'long enough', metadata }))
            .status,
        ).toBe(201);
      });
    });

    describe('per-address limit', () => {
      it('counts sign-ups and sign-ins from one address together: the 61st in a minute is 429', async () => {
        for (let i = 0; i < 30; i++) {
          expect(
            (await post('/v1/auth/signup', { email: `s${i}@example.com`, password: 'long enough' })).status,
          ).toBe(201);
          await post('/v1/auth/signin', { email: `s${i}@example.com`, password: 'wrong password' });
        }
        const limited = await post('/v1/auth/signup', { email: 'late@example.com', password: 'long enough' });
        expect(limited.headers.get('retry-after')).toBe('60');
        await assertProblem(limited, 429, 'rate_limited');
      });
    });

    describe('POST /v1/auth/signin', () => {
      it('answers the token pair with expiry and user', async () => {
        await post('/v1/auth/signup', { email: 'dora@example.com', password: 'long enough' });
        const signedInAt = t.clock.now().getTime();
        const res = await post('/v1/auth/signin', { email: ' DORA@example.com', password: 'long enough' });
        expect(res.status).toBe(200);
        expect(res.headers.get('cache-control')).toBe('no-store');
        const body = (await res.json()) as TokenJson;
        expect(TokenResponse.parse(body)).toEqual(body);
        expect(body).toMatchObject({
          token_type: 'bearer',
          expires_in: world.accessTokenTtlSec,
          expires_at: new Date(signedInAt + world.accessTokenTtlSec * 1000).toISOString(),
          user: { email: 'dora@example.com' },
        });
        const me = await t.request('/v1/auth/me', { token: body.access_token });
        expect(await me.json()).toEqual({ user: body.user });
      });

      it('answers unknown e-mail and wrong password alike: 401 invalid_credentials', async () => {
        await post('/v1/auth/signup', { email: 'eve@example.com', password: 'long enough' });
        const wrong = await assertProblem(
          await post('/v1/auth/signin', { email: 'eve@example.com', password: 'wrong password' }),
          401,
          'invalid_credentials',
        );
        const unknown = await assertProblem(
          await post('/v1/auth/signin', { email: 'nobody@example.com', password: 'long enough' }),
          401,
          'invalid_credentials',
        );
        expect(unknown.detail).toBe(wrong.detail);
      });

      it('rate limits sign-in per e-mail: the 11th attempt in a minute is 429 with Retry-After', async () => {
        await post('/v1/auth/signup', { email: 'frank@example.com', password: 'long enough' });
        for (let i = 0; i < 10; i++) {
          const res = await post('/v1/auth/signin', {
            email: 'frank@example.com',
            password: 'wrong password',
          });
          expect(res.status).toBe(401);
        }
        const limited = await post('/v1/auth/signin', {
          email: 'frank@example.com',
          password: 'long enough',
        });
        expect(limited.headers.get('retry-after')).toBe('60');
        await assertProblem(limited, 429, 'rate_limited');
        t.clock.advance(60_000);
        expect(
          (await post('/v1/auth/signin', { email: 'frank@example.com', password: 'long enough' })).status,
        ).toBe(200);
      });

      it('passes the client address on: 60 attempts a minute per address', async () => {
        for (let i = 0; i < 60; i++) {
          await post('/v1/auth/signin', { email: `u${i}@example.com`, password: 'whatever1' });
        }
        const limited = await post('/v1/auth/signin', { email: 'fresh@example.com', password: 'whatever1' });
        await assertProblem(limited, 429, 'rate_limited');
      });
    });

    describe('POST /v1/auth/refresh', () => {
      it('rotates the refresh token and detects reuse, revoking the whole sign-in', async () => {
        const user = await t.signUpAndIn();
        const first = await post('/v1/auth/refresh', { refresh_token: user.refreshToken });
        expect(first.status).toBe(200);
        const grant = TokenResponse.parse(await first.json());
        expect(grant.refresh_token).not.toBe(user.refreshToken);
        expect(grant.user.id).toBe(user.id);

        await assertProblem(
          await post('/v1/auth/refresh', { refresh_token: user.refreshToken }),
          401,
          'invalid_refresh_token',
        );
        // Reuse revoked the sign-in session: the newest refresh token and its access token are dead too.
        await assertProblem(
          await post('/v1/auth/refresh', { refresh_token: grant.refresh_token }),
          401,
          'invalid_refresh_token',
        );
        await assertProblem(
          await t.request('/v1/auth/me', { token: grant.access_token }),
          401,
          'unauthorized',
        );
      });

      it('answers 401 invalid_refresh_token for an unknown token and 400 without one', async () => {
        await assertProblem(
          await post('/v1/auth/refresh', { refresh_token: 'rt-nope' }),
          401,
          'invalid_refresh_token',
        );
        const problem = await assertProblem(await post('/v1/auth/refresh', {}), 400, 'validation_failed');
        expect(problem.errors).toEqual([{ path: 'refresh_token', message: expect.any(String) }]);
      });
    });

    describe('POST /v1/auth/signout', () => {
      it('signs out: the same access token and the refresh token are refused afterwards', async () => {
        const user = await t.signUpAndIn();
        const res = await post('/v1/auth/signout', undefined, user.accessToken);
        expect(res.status).toBe(200);
        expect(await res.json()).toEqual({ message: 'Signed out' });
        await assertProblem(await t.request('/v1/auth/me', { token: user.accessToken }), 401, 'unauthorized');
        await assertProblem(await post('/v1/auth/signout', undefined, user.accessToken), 401, 'unauthorized');
        await assertProblem(
          await post('/v1/auth/refresh', { refresh_token: user.refreshToken }),
          401,
          'invalid_refresh_token',
        );
      });

      it('ends only the sign-in of the bearer: another sign-in of the same user keeps working', async () => {
        const user = await t.signUpAndIn();
        const other = TokenResponse.parse(
          await (await post('/v1/auth/signin', { email: user.email, password: user.password })).json(),
        );
        expect((await post('/v1/auth/signout', undefined, user.accessToken)).status).toBe(200);
        await assertProblem(await t.request('/v1/auth/me', { token: user.accessToken }), 401, 'unauthorized');
        const me = await t.request('/v1/auth/me', { token: other.access_token });
        expect(await me.json()).toEqual({ user: { id: user.id, email: user.email } });
        expect((await post('/v1/auth/refresh', { refresh_token: other.refresh_token })).status).toBe(200);
      });

      it('accepts an empty JSON object but names an unknown field', async () => {
        const user = await t.signUpAndIn();
        const unknown = await assertProblem(
          await post('/v1/auth/signout', { everywhere: true }, user.accessToken),
          400,
          'validation_failed',
        );
        expect(unknown.errors).toEqual([{ path: 'everywhere', message: 'is not a known field' }]);
        expect((await post('/v1/auth/signout', {}, user.accessToken)).status).toBe(200);
      });
    });

    describe('authentication of protected routes', () => {
      it.each([
        ['no header', undefined],
        ['a garbage token', 'Bearer garbage'],
        ['another scheme', 'Basic dXNlcjpwYXNz'],
        ['an empty bearer', 'Bearer '],
      ])('answers 401 unauthorized with WWW-Authenticate for %s', async (_label, authorization) => {
        const res = await t.request(
          '/v1/auth/me',
          authorization ? { headers: { Authorization: authorization } } : {},
        );
        expect(res.headers.get('www-authenticate')).toBe('Bearer');
        await assertProblem(res, 401, 'unauthorized');
      });

      it('refuses an expired access token', async () => {
        const user = await t.signUpAndIn();
        t.clock.advance(world.accessTokenTtlSec * 1000 - 1000);
        expect((await t.request('/v1/auth/me', { token: user.accessToken })).status).toBe(200);
        t.clock.advance(1000);
        await assertProblem(await t.request('/v1/auth/me', { token: user.accessToken }), 401, 'unauthorized');
      });

      const { forgeToken } = options;
      if (forgeToken) {
        it('refuses a token with the right claims signed by a key it does not trust', async () => {
          const user = await t.signUpAndIn();
          const forged = await forgeToken(world, user.accessToken);
          expect(forged).not.toBe(user.accessToken);
          expect((await t.request('/v1/auth/me', { token: user.accessToken })).status).toBe(200);
          const res = await t.request('/v1/auth/me', { token: forged });
          expect(res.headers.get('www-authenticate')).toBe('Bearer');
          await assertProblem(res, 401, 'unauthorized');
        });
      }

      it('checks the token before the body: 401 even for an invalid body', async () => {
        await assertProblem(
          await t.request('/v1/projects', {
            method: 'POST',
            body: 'not json',
            headers: { 'Content-Type': 'text/plain' },
          }),
          401,
          'unauthorized',
        );
      });
    });

    describe('POST /v1/auth/sync', () => {
      it('creates the default project once, even for 20 concurrent calls', async () => {
        const user = await t.signUpAndIn();
        const responses = await Promise.all(
          Array.from({ length: 20 }, () => post('/v1/auth/sync', undefined, user.accessToken)),
        );
        const bodies = (await Promise.all(responses.map((r) => r.json()))) as SyncJson[];
        expect(responses.map((r) => r.status)).toEqual(Array(20).fill(200));
        const projectIds = new Set(bodies.map((b) => b.project.id));
        expect(projectIds.size).toBe(1);
        expect(bodies[0]).toEqual({
          user: { id: user.id, email: user.email },
          project: { id: [...projectIds][0], name: 'Default Project', slug: 'default' },
        });
        expect(await t.projects.listForMember(user.id, { archived: false })).toHaveLength(1);
      });

      it('returns the oldest project, archived included, and creates nothing when one exists', async () => {
        const user = await t.signUpAndIn();
        const first = (await (await post('/v1/projects', { name: 'First' }, user.accessToken)).json()) as {
          id: string;
        };
        t.clock.advance(1000);
        await post('/v1/projects', { name: 'Second' }, user.accessToken);
        await post(`/v1/projects/${first.id}:archive`, undefined, user.accessToken);
        const res = await post('/v1/auth/sync', undefined, user.accessToken);
        expect(res.status).toBe(200);
        expect(((await res.json()) as SyncJson).project).toEqual({
          id: first.id,
          name: 'First',
          slug: 'first',
        });
        expect(await t.projects.listForMember(user.id, { archived: false })).toHaveLength(1);
        expect(await t.projects.listForMember(user.id, { archived: true })).toHaveLength(1);
      });

      it('records a user the service has not seen (signed up at the identity provider only)', async () => {
        const identity = await t.identity.signUp({
          email: 'outside@example.com',
          password: 'long enough',
          metadata: {},
        });
        expect(await t.users.findById(identity.id)).toBeNull();
        const signIn = await post('/v1/auth/signin', {
          email: 'outside@example.com',
          password: 'long enough',
        });
        const grant = (await signIn.json()) as TokenJson;
        const res = await post('/v1/auth/sync', undefined, grant.access_token);
        expect(((await res.json()) as SyncJson).user).toEqual({
          id: identity.id,
          email: 'outside@example.com',
        });
        expect((await t.users.findById(identity.id))?.email).toBe('outside@example.com');
      });
    });
  });
}
