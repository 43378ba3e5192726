import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IdentityProvider } from '@browserdeck/domain';
import { FakeGoTrue } from '@browserdeck/testing/identity-supabase';
import nock from 'nock';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { loadConfig } from '../examples/server/src/config.ts';
import { createContainer } from '../examples/server/src/createContainer.ts';
import { TOKENS as T } from '../examples/server/src/tokens.ts';
import type { Browserdeck } from '../packages/adapters/src/composition/Browserdeck.ts';
import { hashIssuedRefreshToken } from '../packages/adapters/src/identity/supabase/IssuedRefreshTokenStore.ts';
import { createMikroOrm } from '../packages/adapters/src/persistence/mikro-orm/createMikroOrm.ts';

/**
 * The server's composition with `IDENTITY_PROVIDER=supabase`: two containers (two servers) on one
 * SQLite file share what a sign-out revoked.
 */
describe('server composition with IDENTITY_PROVIDER=supabase', () => {
  const dir = mkdtempSync(join(tmpdir(), 'browserdeck-supabase-'));
  let gotrue: FakeGoTrue;
  const composed: Browserdeck[] = [];

  beforeAll(async () => {
    nock.disableNetConnect();
    gotrue = await new FakeGoTrue({ now: () => new Date() }).start();
  });
  afterAll(async () => {
    for (const browserdeck of composed) await browserdeck.close();
    nock.cleanAll();
    nock.enableNetConnect();
    rmSync(dir, { recursive: true, force: true });
  });

  async function server(): Promise<{ identity: IdentityProvider }> {
    const config = loadConfig({
      DATA_DIR: dir,
      IDENTITY_PROVIDER: 'supabase',
      SUPABASE_URL: gotrue.url,
      SUPABASE_ANON_KEY: 'sb_publishable_test',
      // Never called here; it keeps Chromium out of the composition.
      BROWSER_PROVIDER: 'browserbase',
      BROWSERBASE_API_KEY: 'bb_test',
      BROWSERBASE_PROJECT_ID: 'proj',
    });
    const container = await createContainer(config, pino({ level: 'silent' }));
    const browserdeck = await container.getAsync(T.Browserdeck);
    composed.push(browserdeck);
    return { identity: browserdeck.identity };
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
    // What is stored, read through a connection of the test's own to the shared file.
    const orm = await createMikroOrm({ databaseUrl: `sqlite:${join(dir, 'browserdeck.sqlite')}` });
    onTestFinished(() => orm.close(true));
    const connection = orm.em.getConnection();
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
