import { ManualClock } from '@browserdeck/testing';
import { assertProblem, createTestApp, type TestApp } from '@browserdeck/testing/adapters';
import { ANON_KEY, FakeGoTrue } from '@browserdeck/testing/identity-supabase';
import { decodeJwt } from 'jose';
import nock from 'nock';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SupabaseIdentityProvider } from '../packages/adapters/src/identity/supabase/SupabaseIdentityProvider.ts';
import type { BrowserdeckOrm } from '../packages/adapters/src/persistence/mikro-orm/BrowserdeckOrm.ts';
import {
  createMikroOrm,
  type DatabaseDialect,
  MikroOrmIssuedRefreshTokenStore,
  MikroOrmRevokedSessionStore,
} from '../packages/adapters/src/persistence/mikro-orm/index.ts';
import { openTestOrm, type TestOrm } from './mikroOrm.ts';

/**
 * Two app instances, each with its own SupabaseIdentityProvider and its own ORM (as two processes
 * would have), sharing one database and one GoTrue project: what one instance learns about a
 * sign-in session (sign-out, refresh-token reuse) the other honours at once.
 */
export function describeSupabaseRevocationAcrossInstances(dialect: DatabaseDialect): void {
  describe(`Supabase revocation across instances sharing a ${dialect} database`, () => {
    let db: TestOrm;
    let secondOrm: BrowserdeckOrm;
    let gotrue: FakeGoTrue;
    let a: TestApp<SupabaseIdentityProvider>;
    let b: TestApp<SupabaseIdentityProvider>;

    beforeAll(async () => {
      nock.disableNetConnect();
      nock.enableNetConnect('127.0.0.1');
      db = await openTestOrm(dialect);
      secondOrm = await createMikroOrm({ databaseUrl: db.database.url });
    });
    afterAll(async () => {
      nock.cleanAll();
      nock.enableNetConnect();
      await secondOrm?.close(true);
      await db?.close();
    });

    const instance = (clock: ManualClock, orm: BrowserdeckOrm) =>
      createTestApp({
        clock,
        identity: () =>
          new SupabaseIdentityProvider({
            url: gotrue.url,
            anonKey: ANON_KEY,
            revokedSessions: new MikroOrmRevokedSessionStore({ orm }),
            issuedRefreshTokens: new MikroOrmIssuedRefreshTokenStore({ orm }),
            clock,
          }),
      });

    beforeEach(async () => {
      await db.reset();
      // One clock: the instances agree on the time, as servers with synchronised clocks do.
      const clock = new ManualClock();
      gotrue = await new FakeGoTrue(clock).start();
      a = await instance(clock, db.orm);
      b = await instance(clock, secondOrm);
    });
    afterEach(async () => {
      await a.close();
      await b.close();
    });

    const post = (t: TestApp<SupabaseIdentityProvider>, path: string, json?: unknown, token?: string) =>
      t.request(path, {
        method: 'POST',
        ...(json === undefined ? {} : { json }),
        ...(token ? { token } : {}),
      });

    it('a sign-out on one instance makes the same access token 401 on the other', async () => {
      const user = await a.signUpAndIn();
      expect((await b.request('/v1/auth/me', { token: user.accessToken })).status).toBe(200);
      expect((await post(a, '/v1/auth/signout', undefined, user.accessToken)).status).toBe(200);
      const problem = await assertProblem(
        await b.request('/v1/auth/me', { token: user.accessToken }),
        401,
        'unauthorized',
      );
      expect(problem.detail).toBe('The access token was revoked.');
      await assertProblem(await a.request('/v1/auth/me', { token: user.accessToken }), 401, 'unauthorized');
    });

    it('refresh-token reuse detected on one instance revokes the tokens another instance issued', async () => {
      const user = await a.signUpAndIn();
      const rotated = await post(a, '/v1/auth/refresh', { refresh_token: user.refreshToken });
      const grant = (await rotated.json()) as { access_token: string };
      expect(rotated.status).toBe(200);
      expect(decodeJwt(grant.access_token).session_id).toBe(decodeJwt(user.accessToken).session_id);
      // The old token is replayed against the other instance; GoTrue says "already used".
      await assertProblem(
        await post(b, '/v1/auth/refresh', { refresh_token: user.refreshToken }),
        401,
        'invalid_refresh_token',
      );
      await assertProblem(await a.request('/v1/auth/me', { token: grant.access_token }), 401, 'unauthorized');
      await assertProblem(await b.request('/v1/auth/me', { token: user.accessToken }), 401, 'unauthorized');
    });

    it('keeps other sign-ins working on both instances', async () => {
      const user = await a.signUpAndIn();
      const other = (await (
        await post(b, '/v1/auth/signin', { email: user.email, password: user.password })
      ).json()) as { access_token: string };
      expect((await post(b, '/v1/auth/signout', undefined, user.accessToken)).status).toBe(200);
      expect((await a.request('/v1/auth/me', { token: other.access_token })).status).toBe(200);
      expect((await b.request('/v1/auth/me', { token: other.access_token })).status).toBe(200);
    });
  });
}
