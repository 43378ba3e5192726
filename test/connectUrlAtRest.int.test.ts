import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../examples/server/src/config.ts';
import { type RunningServer, startServer } from '../examples/server/src/startServer.ts';
import {
  type BrowserdeckOrm,
  createMikroOrm,
  type DatabaseDialect,
} from '../packages/adapters/src/persistence/mikro-orm/index.ts';
import { type BrowserbaseStandIn, startBrowserbaseStandIn } from './browserbaseStandIn.ts';
import { createTestDatabase, type TestDatabase } from './postgres.ts';

/**
 * http-api.md §10, "connect signing keys are never stored in plain text", through the server on both
 * databases: the Browserbase stand-in hands out `connectUrl`s with `?signingKey=sk-<id>`.
 */
describe.each<DatabaseDialect>(['sqlite', 'postgresql'])('connect URLs at rest (%s)', (dialect) => {
  let standIn: BrowserbaseStandIn;
  let db: TestDatabase | undefined;
  let server: RunningServer;
  let orm: BrowserdeckOrm;
  const dataDir = mkdtempSync(join(tmpdir(), 'browserdeck-connect-url-'));

  beforeAll(async () => {
    standIn = await startBrowserbaseStandIn();
    db = dialect === 'postgresql' ? await createTestDatabase() : undefined;
    const config = loadConfig({
      DATA_DIR: dataDir,
      PORT: '0',
      ...(db ? { DATABASE_URL: db.url } : {}),
      BROWSER_PROVIDER: 'browserbase',
      BROWSERBASE_API_KEY: 'bb_test',
      BROWSERBASE_PROJECT_ID: 'test-browserbase-project',
      BROWSERBASE_BASE_URL: standIn.url,
    });
    server = await startServer(config, pino({ level: 'silent' }));
    orm = await createMikroOrm({ databaseUrl: config.databaseUrl });
  });
  afterAll(async () => {
    await server?.stop();
    await orm?.close(true);
    await standIn?.stop();
    await db?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function call(method: string, path: string, token?: string, body?: unknown, headers = {}) {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  it('stores only ciphertext, and the API answers the full connectUrl on create, replay, get and list', async () => {
    const email = `connect-${dialect}@example.com`;
    const password = 'correct horse battery';
    expect((await call('POST', '/v1/auth/signup', undefined, { email, password })).status).toBe(201);
    const token = (await call('POST', '/v1/auth/signin', undefined, { email, password })).body
      .access_token as string;
    const project = (await call('POST', '/v1/projects', token, { name: 'Connect' })).body;
    const base = `/v1/browserbase/projects/${project.id}/sessions`;

    const created = await call('POST', base, token, {}, { 'Idempotency-Key': 'create-1' });
    expect(created.status).toBe(201);
    const connectUrl = created.body.connectUrl as string;
    const signingKey = new URL(connectUrl).searchParams.get('signingKey');
    expect(signingKey).toMatch(/^sk-/);
    const replayed = await call('POST', base, token, {}, { 'Idempotency-Key': 'create-1' });
    expect(replayed.body.connectUrl).toBe(connectUrl);
    expect((await call('GET', `${base}/${created.body.id}`, token)).body.connectUrl).toBe(connectUrl);
    const listed = (await call('GET', base, token)).body.sessions as Array<{ connectUrl: string }>;
    expect(listed.map((s) => s.connectUrl)).toEqual([connectUrl]);

    const connection = orm.em.getConnection();
    const sessions = await connection.execute('select * from browser_sessions');
    const answers = await connection.execute('select * from idempotency_keys');
    expect(sessions).toHaveLength(1);
    expect(answers).toHaveLength(1);
    for (const stored of [JSON.stringify(sessions), JSON.stringify(answers)]) {
      expect(stored).not.toContain(signingKey);
      expect(stored).not.toContain('signingKey');
    }
  });
});
