import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IdentityProvider } from '@browserdeck/domain';
import type { Container } from 'inversify';
import nock from 'nock';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../examples/server/src/config.ts';
import { createContainer } from '../examples/server/src/createContainer.ts';
import { TOKENS as T } from '../examples/server/src/tokens.ts';
import { hashIssuedRefreshToken } from '../packages/adapters/src/identity/supabase/IssuedRefreshTokenStore.ts';
import { FakeGoTrue } from '../packages/adapters/src/identity/supabase/testing/FakeGoTrue.ts';
import type { BrowserdeckOrm } from '../packages/adapters/src/persistence/mikro-orm/BrowserdeckOrm.ts';

/**
 * The server's composition with `IDENTITY_PROVIDER=supabase`: two containers (two servers) on one
 * SQLite file share what a sign-out revoked.
 */
describe('server composition with IDENTITY_PROVIDER=supabase', () => {
  const dir = mkdtempSync(join(tmpdir(), 'browserdeck-supabase-'));
  let gotrue: FakeGoTrue;
  const containers: Container[] = [];

  beforeAll(async () => {
    nock.disableNetConnect();
    gotrue = await new FakeGoTrue({ now: () => new Date() }).start();
  });
  afterAll(async () => {
    for (const container of containers) await (await container.getAsync(T.Orm)).close(true);
    nock.cleanAll();
    nock.enableNetConnect();
    rmSync(dir, { recursive: true, force: true });
  });

  async function server(): Promise<{ identity: IdentityProvider; orm: BrowserdeckOrm }> {
    const config = loadConfig({
      DATA_DIR: dir,
      IDENTITY_PROVIDER: 'supabase',
      SUPABASE_URL: gotrue.url,
      SUPABASE_ANON_KEY: 'sb_publishable_test',
    });
    const container = await createContainer(config, pino({ level: 'silent' }));
    containers.push(container);
    return { identity: await container.getAsync(T.IdentityProvider), orm: await container.getAsync(T.Orm) };
  }

  it('stores revocations in the shared database: a sign-out on one server is honoured by the other', async () => {
    const a = await server();
    const b = await server();
    await a.identity.signUp({ email: 'ada@example.com', password: 'long enough', metadata: {} });
    const grant = await a.identity.signIn('ada@example.com', 'long enough');
    const principal = await a.identity.authenticate(grant.accessToken);
    expect((await b.identity.authenticate(grant.accessToken)).sessionId).toBe(principal.sessionId);
    await a.identity.signOut(principal);
    await expect(b.identity.authenticate(grant.accessToken)).rejects.toMatchObject({ code: 'unauthorized' });
    const connection = b.orm.em.getConnection();
    expect(await connection.execute('select session_id from supabase_revoked_sessions')).toEqual([
      { session_id: principal.sessionId },
    ]);
    // The refresh token itself is never stored, only its hash.
    expect(
      await connection.execute('select token_hash, session_id from supabase_issued_refresh_tokens'),
    ).toEqual([{ token_hash: hashIssuedRefreshToken(grant.refreshToken), session_id: principal.sessionId }]);
    expect(hashIssuedRefreshToken(grant.refreshToken)).not.toBe(grant.refreshToken);
  });
});
