import { createServer } from 'node:net';
import { BrowserSession, type SessionProxy, stableStringify, UnavailableError } from '@browserdeck/domain';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type BrowserdeckOrm,
  createMikroOrm,
  type DatabaseDialect,
  MikroOrmAgentRepository,
  MikroOrmIdempotencyStore,
  MikroOrmProjectRepository,
  MikroOrmSessionRepository,
} from '../packages/adapters/src/persistence/mikro-orm/index.ts';
import { SecretBoxError } from '../packages/adapters/src/persistence/secrets/index.ts';
import { openTestOrm, type TestOrm } from './mikroOrm.ts';
import { givenProject, makeAgent, makeSession, newSecretBox, OWNER, testId } from './sessionFixtures.ts';

const P1 = testId(1, 1);
const P2 = testId(1, 2);
const NOW = new Date('2026-03-10T12:00:00.000Z');
type Row = Record<string, unknown>;

/** Reads a stored timestamp (epoch ms on SQLite, a Date or string on PostgreSQL) as ISO text. */
const iso = (value: unknown) => new Date(value as string | number).toISOString();

/** What lands in the session tables, and what holds with several ORMs on one database. */
export function describeMikroOrmSessionStorage(dialect: DatabaseDialect): void {
  describe(`MikroORM session storage (${dialect})`, () => {
    let db: TestOrm;
    let second: BrowserdeckOrm;
    const secrets = newSecretBox();
    const rows = (sql: string, params: unknown[] = []) =>
      db.orm.em.getConnection().execute<Row[]>(sql, params);
    const sessionsOn = (orm: BrowserdeckOrm) => new MikroOrmSessionRepository({ orm, secrets });

    beforeAll(async () => {
      db = await openTestOrm(dialect);
      second = await createMikroOrm({ databaseUrl: db.database.url });
    });
    afterAll(async () => {
      await second?.close(true);
      await db?.close();
    });
    beforeEach(async () => {
      await db.reset();
      await givenProject(db.orm, P1);
      await givenProject(db.orm, P2);
    });

    it('stores env sealed: no plaintext in the row, different ciphertexts for equal values', async () => {
      const sessions = sessionsOn(db.orm);
      const env = { API_TOKEN: 'plaintext-session-secret-42' };
      await sessions.add(makeSession({ id: testId(2, 1), projectId: P1, env }));
      await sessions.add(makeSession({ id: testId(2, 2), projectId: P1, env }));
      const stored = await rows('select * from browser_sessions order by id');
      expect(JSON.stringify(stored)).not.toContain('plaintext-session-secret-42');
      expect(JSON.stringify(stored)).not.toContain('API_TOKEN');
      const [a, b] = stored as [Row, Row];
      expect(a.env).toMatch(/^v1\.[\w-]{8}\.[\w-]{16}\.[\w-]{22}\.[\w-]+$/);
      expect(a.env).not.toBe(b.env);
      expect((await sessions.findInProject(P1, testId(2, 1)))?.env).toEqual(env);
    });

    it('stores connectUrl sealed: its signing key is in no row; every read gives the URL back', async () => {
      const sessions = sessionsOn(db.orm);
      const signed = (id: string, key: string) => `ws://127.0.0.1:3000/v1/connect/${id}?signingKey=${key}`;
      const s = makeSession({
        id: testId(2, 1),
        projectId: P1,
        connectUrl: signed(testId(2, 1), 'sk-first-4242'),
      });
      await sessions.add(s);
      const stored = async () => JSON.stringify(await rows('select * from browser_sessions'));
      expect(await stored()).not.toContain('sk-first-4242');
      expect(await stored()).not.toContain('signingKey');
      const [row] = (await rows('select connect_url from browser_sessions')) as [Row];
      expect(row.connect_url).toMatch(/^v1\.[\w-]{8}\.[\w-]{16}\.[\w-]{22}\.[\w-]+$/);
      expect((await sessions.findInProject(P1, s.id))?.connectUrl).toBe(signed(s.id, 'sk-first-4242'));
      const [listed] = (await sessions.list(P1, { limit: 5, offset: 0 })).sessions;
      expect(listed?.connectUrl).toBe(signed(s.id, 'sk-first-4242'));
      expect((await sessions.listActiveInProject(P1))[0]?.connectUrl).toBe(signed(s.id, 'sk-first-4242'));
      // An update (a refresh that brought a new URL) seals the new one.
      const { providerSessionId, providerProjectId, startedAt, expiresAt } = s;
      const connectUrl = signed(s.id, 'sk-second-4343');
      const snapshot = { providerSessionId, providerProjectId, startedAt, expiresAt, connectUrl };
      s.applyProviderSnapshot(
        { ...snapshot, status: 'RUNNING', seleniumRemoteUrl: null, endedAt: null },
        NOW,
      );
      await sessions.update(s);
      expect(await stored()).not.toContain('sk-second-4343');
      const [claimed] = await sessions.claimForSync(NOW, new Date(NOW.getTime() + 30_000), 5);
      expect(claimed?.connectUrl).toBe(signed(s.id, 'sk-second-4343'));
    });

    it('stores proxies sealed: no credential, server or pattern in any row; every read and an update keep them', async () => {
      const sessions = sessionsOn(db.orm);
      const proxies: SessionProxy[] = [
        {
          type: 'external',
          server: 'http://proxy-host-9137.example:8080',
          username: 'proxy-user-5521',
          password: 'proxy-pass-8842',
          domainPattern: 'pattern-6613',
        },
        { type: 'none' },
      ];
      const s = makeSession({ id: testId(2, 1), projectId: P1, proxies });
      await sessions.add(s);
      await sessions.add(makeSession({ id: testId(2, 2), projectId: P1 }));
      const stored = async () => JSON.stringify(await rows('select * from browser_sessions'));
      for (const secret of [
        'proxy-host-9137',
        'proxy-user-5521',
        'proxy-pass-8842',
        'pattern-6613',
        'external',
      ])
        expect(await stored()).not.toContain(secret);
      const byId = (await rows('select id, proxies from browser_sessions order by id')) as [Row, Row];
      expect(byId[0].proxies).toMatch(/^v1\.[\w-]{8}\.[\w-]{16}\.[\w-]{22}\.[\w-]+$/);
      expect(byId[1].proxies).toBeNull();
      expect((await sessions.findInProject(P1, s.id))?.proxies).toEqual(proxies);
      expect((await sessions.findInProject(P1, testId(2, 2)))?.proxies).toBeNull();
      expect((await sessions.list(P1, { limit: 5, offset: 0 })).sessions.map((x) => x.proxies)).toEqual([
        null,
        proxies,
      ]);
      const [claimed] = await sessions.claimForSync(NOW, new Date(NOW.getTime() + 30_000), 1);
      expect(claimed?.proxies).toEqual(proxies);
      s.end('COMPLETED', NOW);
      await sessions.update(s);
      expect((await sessions.findInProject(P1, s.id))?.proxies).toEqual(proxies);
      expect(await stored()).not.toContain('proxy-pass-8842');
    });

    it('keeps a create’s proxy password out of the Idempotency-Key row: only a digest of the body', async () => {
      const store = new MikroOrmIdempotencyStore({ orm: db.orm, secrets });
      const body = stableStringify({
        proxies: [
          { type: 'external', server: 'http://p.example:1', username: 'u', password: 'idem-pass-3391' },
        ],
      });
      const later = new Date(NOW.getTime() + 60_000);
      expect(await store.reserve('scope', 'key-1', body, testId(2, 1), NOW, later)).toBeNull();
      expect(JSON.stringify(await rows('select * from idempotency_keys'))).not.toContain('idem-pass-3391');
      expect((await store.reserve('scope', 'key-1', body, testId(2, 1), NOW, later))?.fingerprint).toBe(body);
    });

    it('reads a connect URL stored plain by an older version as it is, and seals it at the next write', async () => {
      const sessions = sessionsOn(db.orm);
      const s = makeSession({ id: testId(2, 1), projectId: P1 });
      await sessions.add(s);
      const plain = 'wss://connect.usw2.browserbase.com?signingKey=sk-legacy-77';
      await rows('update browser_sessions set connect_url = ? where id = ?', [plain, s.id]);
      const read = await sessions.findInProject(P1, s.id);
      expect(read?.connectUrl).toBe(plain);
      expect((await sessions.list(P1, { limit: 5, offset: 0 })).sessions[0]?.connectUrl).toBe(plain);
      read!.end('COMPLETED', NOW);
      await sessions.update(read!);
      expect(JSON.stringify(await rows('select connect_url from browser_sessions'))).not.toContain(
        'sk-legacy-77',
      );
      expect((await sessions.findInProject(P1, s.id))?.connectUrl).toBe(plain);
    });

    it('stores an Idempotency-Key answer sealed (it holds the connect URL), and reads an older plain one', async () => {
      const store = new MikroOrmIdempotencyStore({ orm: db.orm, secrets });
      const s = makeSession({
        id: testId(2, 1),
        projectId: P1,
        connectUrl: 'wss://connect.usw2.browserbase.com?signingKey=sk-answer-55',
      });
      const later = new Date(NOW.getTime() + 60_000);
      expect(await store.reserve('scope', 'key-1', 'fp', s.id, NOW, later)).toBeNull();
      await store.complete('scope', 'key-1', s.id, s.answer);
      const [row] = (await rows('select answer from idempotency_keys')) as [Row];
      expect(String(row.answer)).not.toContain('sk-answer-55');
      expect(row.answer).toMatch(/^v1\./);
      const replay = await store.reserve('scope', 'key-1', 'fp', s.id, NOW, later);
      expect(replay?.answer).toEqual(s.answer);
      // A row recorded before answers were sealed holds the JSON itself.
      await rows('update idempotency_keys set answer = ?', [JSON.stringify(s.answer)]);
      expect((await store.reserve('scope', 'key-1', 'fp', s.id, NOW, later))?.answer).toEqual(s.answer);
    });

    it('lists a session with every field it stores: env opened, context, agent, expiry, end', async () => {
      const sessions = sessionsOn(db.orm);
      const agentId = testId(3, 9);
      const ended = makeSession({
        id: testId(2, 1),
        projectId: P1,
        status: 'COMPLETED',
        endedAt: new Date('2026-03-04T05:16:07.123Z'),
        env: { API_TOKEN: 'listed-secret', REGION: 'eu' },
        agentId,
      });
      await sessions.add(ended);
      const [listed] = (await sessions.list(P1, { status: 'COMPLETED', limit: 5, offset: 0 })).sessions;
      expect(listed).toBeInstanceOf(BrowserSession);
      expect({ ...listed }).toEqual({ ...(await sessions.findInProject(P1, ended.id)) });
      expect(listed).toMatchObject({
        env: { API_TOKEN: 'listed-secret', REGION: 'eu' },
        agentId,
        contextId: 'ctx-1',
      });
      expect(listed?.endedAt?.toISOString()).toBe('2026-03-04T05:16:07.123Z');
      expect(listed?.expiresAt?.toISOString()).toBe('2026-03-04T05:11:07.089Z');
    });

    it('stores agent envVars sealed too, and metadata as JSON', async () => {
      const agents = new MikroOrmAgentRepository({ orm: db.orm, secrets });
      await agents.add(
        makeAgent({ id: testId(3, 1), projectId: P1, envVars: { PASS: 'agent-plaintext-77' } }),
      );
      const [row] = (await rows('select * from agents')) as [Row];
      expect(JSON.stringify(row)).not.toContain('agent-plaintext-77');
      expect(row.env_vars).toMatch(/^v1\./);
      const metadata = typeof row.metadata === 'string' ? JSON.parse(row.metadata) : row.metadata;
      expect(metadata).toEqual({ team: 'qa', tags: ['a', 'b'], nested: { ok: true } });
    });

    it('refuses to read secrets under another key, with a clear error', async () => {
      await sessionsOn(db.orm).add(makeSession({ id: testId(2, 1), projectId: P1 }));
      await new MikroOrmAgentRepository({ orm: db.orm, secrets }).add(
        makeAgent({ id: testId(3, 1), projectId: P1 }),
      );
      const wrong = newSecretBox();
      const session = await new MikroOrmSessionRepository({ orm: db.orm, secrets: wrong })
        .findInProject(P1, testId(2, 1))
        .catch((e: unknown) => e);
      expect(session).toBeInstanceOf(SecretBoxError);
      expect(String((session as Error).message)).toMatch(/another key.*SECRET_KEY/);
      const agent = await new MikroOrmAgentRepository({ orm: db.orm, secrets: wrong })
        .list(P1, { activeOnly: false })
        .catch((e: unknown) => e);
      expect(agent).toBeInstanceOf(SecretBoxError);
    });

    it('keeps snake_case columns and millisecond timestamps', async () => {
      const created = new Date('2026-03-04T05:06:07.089Z');
      const s = makeSession({
        id: testId(2, 1),
        projectId: P1,
        now: created,
        startedAt: new Date(created.getTime() - 1),
      });
      await sessionsOn(db.orm).add(s);
      const [row] = (await rows('select * from browser_sessions')) as [Row];
      // Every column is snake_case (the migrations' drift test pins the full list to the schema).
      for (const column of Object.keys(row)) expect(column).toMatch(/^[a-z]+(_[a-z]+)*$/);
      expect(Object.keys(row)).toEqual(
        expect.arrayContaining(['project_id', 'provider_session_id', 'keep_alive', 'sync_lease_until']),
      );
      expect(iso(row.created_at)).toBe('2026-03-04T05:06:07.089Z');
      expect(iso(row.started_at)).toBe('2026-03-04T05:06:07.088Z');
      expect(iso(row.expires_at)).toBe('2026-03-04T05:11:07.089Z');
      expect(row).toMatchObject({
        status: 'RUNNING',
        timeout_sec: 300,
        ended_at: null,
        provider_instance_id: null,
        sync_lease_until: null,
      });
      await sessionsOn(db.orm).claimForSync(created, new Date(created.getTime() + 30_123), 5);
      const [claimed] = (await rows('select sync_lease_until from browser_sessions')) as [Row];
      expect(iso(claimed.sync_lease_until)).toBe('2026-03-04T05:06:37.212Z');
    });

    it("removes a project's sessions and agents with it; a deleted agent's sessions keep its id", async () => {
      const sessions = sessionsOn(db.orm);
      const agents = new MikroOrmAgentRepository({ orm: db.orm, secrets });
      await agents.add(makeAgent({ id: testId(3, 1), projectId: P1 }));
      await agents.add(makeAgent({ id: testId(3, 2), projectId: P2 }));
      await sessions.add(makeSession({ id: testId(2, 1), projectId: P1, agentId: testId(3, 1) }));
      await sessions.add(makeSession({ id: testId(2, 2), projectId: P2, agentId: testId(3, 2) }));
      expect(await agents.delete(P1, testId(3, 1))).toBe(true);
      expect((await sessions.findInProject(P1, testId(2, 1)))?.agentId).toBe(testId(3, 1));
      expect(await rows('select agent_id from browser_sessions where id = ?', [testId(2, 1)])).toEqual([
        { agent_id: testId(3, 1) },
      ]);
      expect(await new MikroOrmProjectRepository({ orm: db.orm }).delete(OWNER, P2)).toBe(true);
      expect((await rows('select id from browser_sessions')).map((r) => r.id)).toEqual([testId(2, 1)]);
      expect(await rows('select id from agents')).toEqual([]);
    });

    it('answers "nothing" for malformed ids without asking the database, and updates within the project only', async () => {
      const sessions = sessionsOn(db.orm);
      const agents = new MikroOrmAgentRepository({ orm: db.orm, secrets });
      const s = makeSession({ id: testId(2, 1), projectId: P1 });
      await sessions.add(s);
      expect(await sessions.findInProject(P1, 'not-a-uuid')).toBeNull();
      expect(await sessions.findInProject("x' or 1=1 --", s.id)).toBeNull();
      expect(await sessions.list('nope', { limit: 5, offset: 0 })).toEqual({ sessions: [], total: 0 });
      expect(await sessions.listActiveInProject('nope')).toEqual([]);
      expect((await sessions.stats('nope', NOW)).total).toBe(0);
      expect(await agents.findInProject(P1, 'nope')).toBeNull();
      expect(await agents.list('nope', { activeOnly: false })).toEqual([]);
      expect(await agents.delete(P1, 'nope')).toBe(false);
      // An update names its project too: the same id under another project changes nothing.
      const moved = Object.assign(Object.create(Object.getPrototypeOf(s)), { ...s, projectId: P2 });
      moved.end('ERROR', NOW);
      await sessions.update(moved);
      expect((await sessions.findInProject(P1, s.id))?.status).toBe('RUNNING');
    });

    it('stores metadata as plain JSON, and reads a row written without it (older rows, bench seeds) as {}', async () => {
      const sessions = sessionsOn(db.orm);
      const plain = makeSession({ id: testId(2, 1), projectId: P1 });
      const tagged = BrowserSession.create({
        id: plain.id,
        projectId: P1,
        provider: plain.provider,
        settings: { ...plain, metadata: { run: { id: 'r-1' } } },
        snapshot: plain,
        now: NOW,
      });
      await sessions.add(tagged);
      const [row] = (await rows('select metadata from browser_sessions')) as [Row];
      expect(typeof row.metadata === 'string' ? JSON.parse(row.metadata) : row.metadata).toEqual({
        run: { id: 'r-1' },
      });
      // The bench seeds' insert: every column it names, none for metadata.
      const copied = `project_id, provider, provider_session_id, provider_project_id, status, connect_url,
        created_at, updated_at, started_at, last_synced_at, name, script, env, region, timeout_sec`;
      await rows(
        `insert into browser_sessions (id, ${copied}) select ?, ${copied} from browser_sessions where id = ?`,
        [testId(2, 2), plain.id],
      );
      expect((await sessions.findInProject(P1, testId(2, 2)))?.metadata).toEqual({});
      const listed = await sessions.list(P1, { limit: 5, offset: 0 });
      // The copy has the same createdAt: the higher id comes first.
      expect(listed.sessions.map((x) => [x.id, x.metadata])).toEqual([
        [testId(2, 2), {}],
        [testId(2, 1), { run: { id: 'r-1' } }],
      ]);
    });

    it('stores keepAlive as a boolean column, and reads a row written without it (bench seeds) as true', async () => {
      const sessions = sessionsOn(db.orm);
      const plain = makeSession({ id: testId(2, 1), projectId: P1 });
      const ending = BrowserSession.create({
        id: plain.id,
        projectId: P1,
        provider: plain.provider,
        settings: { ...plain, keepAlive: false },
        snapshot: plain,
        now: NOW,
      });
      await sessions.add(ending);
      const [row] = (await rows('select keep_alive from browser_sessions')) as [Row];
      expect(row.keep_alive).toBe(dialect === 'sqlite' ? 0 : false);
      const copied = `project_id, provider, provider_session_id, provider_project_id, status, connect_url,
        created_at, updated_at, started_at, last_synced_at, name, script, env, region, timeout_sec`;
      await rows(
        `insert into browser_sessions (id, ${copied}) select ?, ${copied} from browser_sessions where id = ?`,
        [testId(2, 2), plain.id],
      );
      expect((await sessions.findInProject(P1, testId(2, 2)))?.keepAlive).toBe(true);
      expect((await sessions.findInProject(P1, plain.id))?.keepAlive).toBe(false);
      const listed = await sessions.list(P1, { limit: 5, offset: 0 });
      expect(listed.sessions.map((x) => [x.id, x.keepAlive])).toEqual([
        [testId(2, 2), true],
        [testId(2, 1), false],
      ]);
    });

    if (dialect !== 'postgresql') return;
    it('answers database_unavailable when PostgreSQL cannot be reached', async () => {
      const probe = createServer();
      await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
      const { port } = probe.address() as { port: number };
      await new Promise((resolve) => probe.close(resolve));
      const orm = await createMikroOrm({ databaseUrl: `postgres://u:p@127.0.0.1:${port}/gone` });
      try {
        const calls: (() => Promise<unknown>)[] = [
          () => new MikroOrmSessionRepository({ orm, secrets }).list(P1, { limit: 5, offset: 0 }),
          () => new MikroOrmSessionRepository({ orm, secrets }).claimForSync(NOW, NOW, 5),
          () => new MikroOrmSessionRepository({ orm, secrets }).stats(P1, NOW),
          () => new MikroOrmAgentRepository({ orm, secrets }).list(P1, { activeOnly: false }),
          () => new MikroOrmIdempotencyStore({ orm, secrets }).reserve('s', 'k', 'f', P1, NOW, NOW),
        ];
        for (const call of calls) {
          const error = await call().catch((e: unknown) => e);
          expect(error).toBeInstanceOf(UnavailableError);
          expect(error).toMatchObject({ code: 'database_unavailable' });
        }
      } finally {
        await orm.close(true);
      }
    });
  });
}
