import type { ProviderSessionSnapshot, SessionRepository, SessionViewport } from '@browserdeck/domain';
import {
  BrowserSession,
  isTerminalStatus,
  type SessionSettings,
  type SessionStatus,
} from '@browserdeck/domain';
import { describe, expect, it } from 'vitest';
import { describeStatsSeriesContract } from './describeStatsSeriesContract.ts';

/** A fresh, empty session store, and a way to create the project rows its sessions belong to. */
export interface SessionRepositoryFixture {
  sessions: SessionRepository;
  /** Makes `projectId` exist (database stores need the row for their foreign key). */
  givenProject(projectId: string): Promise<void>;
}

const P1 = '0190c000-0000-7000-8000-0000000000a1';
const P2 = '0190c000-0000-7000-8000-0000000000a2';
const SEC = 1000;
const HOUR = 3_600_000;

/** What a test says about a session it needs; everything else gets a plain default. */
interface SessionSpec {
  projectId?: string;
  status?: SessionStatus;
  createdAt?: Date;
  startedAt?: Date;
  endedAt?: Date | null;
  lastSyncedAt?: Date;
  expiresAt?: Date | null;
  /** The provider instance holding it (none by default). */
  instanceId?: string;
  /** The client's metadata (none by default). */
  metadata?: Record<string, unknown>;
  /** Whether it outlives its clients (the default, true, when absent). */
  keepAlive?: boolean;
  /** The window size asked for (none by default). */
  viewport?: SessionViewport;
  /** Proxy bytes the provider reported at create (0 by default). */
  proxyBytes?: number;
}

/** The provider's view of a stored session, as an unchanged refresh would report it. */
function snapshotOf(session: BrowserSession): ProviderSessionSnapshot {
  const { providerSessionId, providerProjectId, status, connectUrl, seleniumRemoteUrl } = session;
  const { startedAt, endedAt, expiresAt } = session;
  return {
    providerSessionId,
    providerProjectId,
    status,
    connectUrl,
    seleniumRemoteUrl,
    startedAt,
    endedAt,
    expiresAt,
  };
}

/** Every own field of the entity, dates as ISO strings, so a comparison covers each one to the millisecond. */
function fieldsOf(session: BrowserSession): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(session).map(([key, value]) => [key, value instanceof Date ? value.toISOString() : value]),
  );
}

const ids = (sessions: BrowserSession[]) => sessions.map((s) => s.id);

/** A copy of `session` with some fields replaced (a writer holding another version of it). */
function writableCopy(session: BrowserSession, fields: Partial<BrowserSession>): BrowserSession {
  return Object.assign(Object.create(BrowserSession.prototype) as BrowserSession, session, fields);
}

/**
 * Behaviour every `SessionRepository` must have (http-api.md §5): round trips, project scoping, paging,
 * statistics, statistics over time (§14, `describeStatsSeriesContract`), and the reconciler's claim,
 * which must be exclusive under concurrency.
 * `create` gives a fresh, empty store.
 */
export function describeSessionRepositoryContract(
  name: string,
  options: { create: () => Promise<SessionRepositoryFixture> },
): void {
  describe(`SessionRepository contract: ${name}`, () => {
    let seq = 0;
    const base = Date.parse('2026-03-01T12:00:00.123Z');

    function session(spec: SessionSpec = {}): BrowserSession {
      seq++;
      const createdAt = spec.createdAt ?? new Date(base + seq * SEC);
      const status = spec.status ?? 'RUNNING';
      const startedAt = spec.startedAt ?? createdAt;
      const endedAt =
        spec.endedAt !== undefined
          ? spec.endedAt
          : isTerminalStatus(status)
            ? new Date(startedAt.getTime() + 60 * SEC)
            : null;
      const settings: SessionSettings = {
        name: `Session ${seq}`,
        script: '',
        env: {},
        region: 'us-west-2',
        timeoutSec: 300,
        extensionId: null,
        contextId: null,
        agentId: null,
        ...(spec.metadata === undefined ? {} : { metadata: spec.metadata }),
        ...(spec.keepAlive === undefined ? {} : { keepAlive: spec.keepAlive }),
        ...(spec.viewport === undefined ? {} : { viewport: spec.viewport }),
      };
      const created = BrowserSession.create({
        id: `0190c000-0000-7000-8000-${String(seq).padStart(12, '0')}`,
        projectId: spec.projectId ?? P1,
        provider: 'contract',
        settings,
        snapshot: {
          providerSessionId: `provider-${seq}`,
          providerProjectId: 'provider-project',
          status,
          connectUrl: `wss://browsers.example/connect/${seq}`,
          seleniumRemoteUrl: null,
          startedAt,
          endedAt,
          expiresAt: spec.expiresAt ?? null,
          ...(spec.instanceId === undefined ? {} : { instanceId: spec.instanceId }),
          ...(spec.proxyBytes === undefined ? {} : { proxyBytes: spec.proxyBytes }),
        },
        now: createdAt,
      });
      if (spec.lastSyncedAt) created.applyProviderSnapshot(snapshotOf(created), spec.lastSyncedAt);
      return created;
    }

    async function setUp(): Promise<SessionRepository> {
      const fixture = await options.create();
      await fixture.givenProject(P1);
      await fixture.givenProject(P2);
      return fixture.sessions;
    }

    async function addAll(sessions: SessionRepository, list: BrowserSession[]): Promise<void> {
      for (const s of list) await sessions.add(s);
    }

    describe('storing', () => {
      it('round-trips every field of an active session, env and dates to the millisecond', async () => {
        const sessions = await setUp();
        seq++;
        const original = BrowserSession.create({
          id: `0190c000-0000-7000-8000-${String(seq).padStart(12, '0')}`,
          projectId: P1,
          provider: 'browserbase',
          settings: {
            name: 'Nightly crawl ✓',
            script: 'await page.goto("https://example.com");\n// ünïcode 🚀',
            env: { API_KEY: 'sk-123', EMPTY: '', _X1: 'a=b;c "quoted"' },
            region: 'eu-central-1',
            timeoutSec: 21_600,
            extensionId: 'ext-1',
            contextId: 'ctx-1',
            agentId: '0190c000-0000-7000-8000-00000000a9e7',
            metadata: {
              run: { id: 'run-1', tags: ['a', 'b'], retries: 2 },
              team: 'platform ✓',
              'quote"key\\': 'it\'s "x" \\ 🚀\n\u0007',
              ratio: 1.5,
              ok: true,
              none: null,
            },
            keepAlive: false,
            proxies: [
              {
                type: 'external',
                server: 'http://proxy.example:8080',
                username: 'user ✓',
                password: 'p@ss "w0rd" 🚀',
                domainPattern: '^(www\\.)?example\\.com$',
              },
              { type: 'browserbase', geolocation: { country: 'US', state: 'NY', city: 'New York' } },
              { type: 'none' },
            ],
          },
          snapshot: {
            providerSessionId: 'bb-abc',
            providerProjectId: 'bb-project',
            status: 'RUNNING',
            connectUrl: 'wss://connect.example/abc?signingKey=xyz',
            seleniumRemoteUrl: 'https://connect.example/webdriver',
            startedAt: new Date(base + 5),
            endedAt: null,
            expiresAt: new Date(base + 21_600 * SEC + 7),
            instanceId: 'instance-0190c000-a',
            // Past 2^32: the column holds a bigint, read back as a number.
            proxyBytes: 5_000_000_123,
          },
          now: new Date(base + 9),
        });
        await sessions.add(original);
        const found = await sessions.findInProject(P1, original.id);
        expect(found).toBeInstanceOf(BrowserSession);
        expect(fieldsOf(found!)).toEqual(fieldsOf(original));
        expect(found!.providerInstanceId).toBe('instance-0190c000-a');
        expect(found!.keepAlive).toBe(false);
        expect(found!.isActive).toBe(true);
      });

      it('round-trips an ended session with every nullable field null', async () => {
        const sessions = await setUp();
        const original = session({
          status: 'TIMED_OUT',
          startedAt: new Date(base + 1),
          endedAt: new Date(base + 299_999),
        });
        await sessions.add(original);
        const found = await sessions.findInProject(P1, original.id);
        expect(fieldsOf(found!)).toEqual(fieldsOf(original));
        expect(found).toMatchObject({
          seleniumRemoteUrl: null,
          expiresAt: null,
          extensionId: null,
          contextId: null,
          agentId: null,
          providerInstanceId: null,
          env: {},
          metadata: {},
          keepAlive: true,
          viewport: null,
          proxies: null,
          proxyBytes: 0,
        });
        expect(found!.isActive).toBe(false);
      });

      it('keeps the viewport through find, list, the active list and a sync claim', async () => {
        const sessions = await setUp();
        const sized = session({ viewport: { width: 1024, height: 700 } });
        const plain = session();
        await addAll(sessions, [sized, plain]);
        const viewportOf = (list: BrowserSession[]) => list.map((s) => [s.id, s.viewport]);
        const expected = [
          [plain.id, null],
          [sized.id, { width: 1024, height: 700 }],
        ];
        expect((await sessions.findInProject(P1, sized.id))?.viewport).toEqual({ width: 1024, height: 700 });
        expect(viewportOf((await sessions.list(P1, { limit: 10, offset: 0 })).sessions)).toEqual(expected);
        expect(viewportOf(await sessions.listActiveInProject(P1))).toEqual(expect.arrayContaining(expected));
        const claimed = await sessions.claimForSync(new Date(base + HOUR), new Date(base + HOUR + SEC), 10);
        expect(viewportOf(claimed)).toEqual(expect.arrayContaining(expected));
      });

      it('keeps keepAlive through find, list, the active list, a sync claim and an update', async () => {
        const sessions = await setUp();
        const ending = session({ keepAlive: false });
        const kept = session();
        await addAll(sessions, [ending, kept]);
        const keepAliveOf = (list: BrowserSession[]) => list.map((s) => [s.id, s.keepAlive]);
        const expected = [
          [kept.id, true],
          [ending.id, false],
        ];
        expect((await sessions.findInProject(P1, ending.id))?.keepAlive).toBe(false);
        expect(keepAliveOf((await sessions.list(P1, { limit: 10, offset: 0 })).sessions)).toEqual(expected);
        expect(keepAliveOf(await sessions.listActiveInProject(P1))).toEqual(expect.arrayContaining(expected));
        const claimed = await sessions.claimForSync(new Date(base + HOUR), new Date(base + HOUR + SEC), 10);
        expect(keepAliveOf(claimed)).toEqual(expect.arrayContaining(expected));
        ending.end('COMPLETED', new Date(base + HOUR));
        await sessions.update(ending);
        expect(await sessions.findInProject(P1, ending.id)).toMatchObject({
          status: 'COMPLETED',
          keepAlive: false,
        });
      });

      it('finds a session in its own project only, and nothing for unknown ids', async () => {
        const sessions = await setUp();
        const s = session({ projectId: P1 });
        await sessions.add(s);
        expect(await sessions.findInProject(P2, s.id)).toBeNull();
        expect(await sessions.findInProject(P1, '0190c000-0000-7000-8000-00000000ffff')).toBeNull();
      });

      it('keeps its own copy: changing an object after add or after a read changes nothing stored', async () => {
        const sessions = await setUp();
        const s = session();
        await sessions.add(s);
        s.end('ERROR', new Date(base + HOUR));
        const read = await sessions.findInProject(P1, s.id);
        expect(read?.status).toBe('RUNNING');
        read?.end('COMPLETED', new Date(base + HOUR));
        expect((await sessions.findInProject(P1, s.id))?.status).toBe('RUNNING');
      });

      it('stores updates of status, URLs, endedAt, updatedAt and lastSyncedAt', async () => {
        const sessions = await setUp();
        const s = session();
        await sessions.add(s);
        const syncedAt = new Date(base + 2 * HOUR + 321);
        const endedAt = new Date(base + HOUR + 654);
        s.applyProviderSnapshot(
          {
            ...snapshotOf(s),
            status: 'ERROR',
            connectUrl: 'wss://browsers.example/moved',
            endedAt,
            expiresAt: new Date(base + 3 * HOUR + 1),
          },
          syncedAt,
        );
        await sessions.update(s);
        const found = await sessions.findInProject(P1, s.id);
        expect(fieldsOf(found!)).toEqual(fieldsOf(s));
        expect(found).toMatchObject({ status: 'ERROR', connectUrl: 'wss://browsers.example/moved' });
        expect(found!.endedAt?.toISOString()).toBe(endedAt.toISOString());
        expect(found!.lastSyncedAt.toISOString()).toBe(syncedAt.toISOString());
        expect(found!.updatedAt.toISOString()).toBe(syncedAt.toISOString());
      });

      it('keeps a stored terminal status final against a writer holding an older, active copy', async () => {
        const sessions = await setUp();
        const s = session();
        await sessions.add(s);
        const staleCopy = (await sessions.findInProject(P1, s.id))!;
        const releasedAt = new Date(base + HOUR);
        s.end('COMPLETED', releasedAt);
        await sessions.update(s);
        // A sync that read the session before the release writes its (still RUNNING) copy back.
        staleCopy.applyProviderSnapshot(
          { ...snapshotOf(staleCopy), connectUrl: 'wss://stale.example' },
          new Date(base + 2 * HOUR),
        );
        await sessions.update(staleCopy);
        const found = await sessions.findInProject(P1, s.id);
        expect(found).toMatchObject({ status: 'COMPLETED', connectUrl: s.connectUrl });
        expect(found!.endedAt?.toISOString()).toBe(releasedAt.toISOString());
        // Another terminal status does not replace it either.
        staleCopy.end('ERROR', new Date(base + 3 * HOUR));
        await sessions.update(staleCopy);
        expect((await sessions.findInProject(P1, s.id))!.status).toBe('COMPLETED');
      });
    });

    describe('listing', () => {
      it('lists the project’s sessions newest first, with the total', async () => {
        const sessions = await setUp();
        const minute = (m: number) => new Date(base + m * 60 * SEC);
        const a = session({ createdAt: minute(1), status: 'COMPLETED' });
        const b = session({ createdAt: minute(3), status: 'RUNNING' });
        const c = session({ createdAt: minute(2), status: 'RUNNING' });
        const d = session({ createdAt: minute(5), status: 'PENDING' });
        const e = session({ createdAt: minute(4), status: 'RUNNING' });
        const other = session({ createdAt: minute(6), projectId: P2 });
        await addAll(sessions, [a, b, c, d, e, other]);

        const all = await sessions.list(P1, { limit: 10, offset: 0 });
        expect(ids(all.sessions)).toEqual(ids([d, e, b, c, a]));
        expect(all.total).toBe(5);
        expect(all.sessions[0]).toBeInstanceOf(BrowserSession);
        // Listed sessions carry every field as stored, ended (a) and active (d, e, b, c) alike.
        expect(all.sessions.map(fieldsOf)).toEqual([d, e, b, c, a].map(fieldsOf));

        const running = await sessions.list(P1, { status: 'RUNNING', limit: 10, offset: 0 });
        expect(ids(running.sessions)).toEqual(ids([e, b, c]));
        expect(running.total).toBe(3);

        const page = await sessions.list(P1, { limit: 2, offset: 1 });
        expect(ids(page.sessions)).toEqual(ids([e, b]));
        expect(page.total).toBe(5);

        const filteredPage = await sessions.list(P1, { status: 'RUNNING', limit: 1, offset: 2 });
        expect(ids(filteredPage.sessions)).toEqual(ids([c]));
        expect(filteredPage.total).toBe(3);

        const beyond = await sessions.list(P1, { limit: 10, offset: 5 });
        expect(beyond).toEqual({ sessions: [], total: 5 });

        expect(await sessions.list(P1, { status: 'TIMED_OUT', limit: 10, offset: 0 })).toEqual({
          sessions: [],
          total: 0,
        });
        expect(ids((await sessions.list(P2, { limit: 10, offset: 0 })).sessions)).toEqual([other.id]);
      });

      it('filters by metadata: the string, or the JSON text of a number or boolean, at a path of keys', async () => {
        const sessions = await setUp();
        const staging = session({ metadata: { env: 'staging', run: { id: 'run-1' } } });
        const production = session({ metadata: { env: 'production', run: { id: 'run-2' } } });
        const scalars = session({
          status: 'COMPLETED',
          metadata: { env: 'staging', count: 5, ok: true, ratio: 1.5, big: 1e21, off: false },
        });
        const asStrings = session({ metadata: { count: '5', ok: 'true' } });
        const notStrings = session({
          metadata: {
            env: ['staging'],
            run: 'run-1',
            list: [{ id: 'run-1' }],
            nil: null,
            obj: { env: 'staging' },
          },
        });
        const nearMisses = session({ metadata: { env: 'Staging', Env: 'staging', 'run.id': 'run-1' } });
        const spaced = session({ metadata: { env: 'staging ' } });
        const awkward = session({
          metadata: {
            'a"b\\c\'d': 'x\'y"z\\',
            'é ✓ 🚀': 'line\nbreak\ttab\u0001\u2028',
            '': 'empty',
            '[0]': '*',
          },
        });
        const none = session();
        const elsewhere = session({ projectId: P2, metadata: { env: 'staging' } });
        await addAll(sessions, [
          staging,
          production,
          scalars,
          asStrings,
          notStrings,
          nearMisses,
          spaced,
          awkward,
          none,
          elsewhere,
        ]);
        const list = (
          path: string[],
          value: string,
          more: { status?: SessionStatus; offset?: number } = {},
        ) => sessions.list(P1, { metadata: { path, value }, limit: 10, offset: 0, ...more });
        const found = async (path: string[], value: string) => ids((await list(path, value)).sessions);

        const env = await list(['env'], 'staging');
        expect(ids(env.sessions)).toEqual(ids([scalars, staging]));
        expect(env.total).toBe(2);
        expect(env.sessions.map(fieldsOf)).toEqual([scalars, staging].map(fieldsOf));
        expect(await found(['run', 'id'], 'run-1')).toEqual([staging.id]);
        expect(await found(['run', 'id'], 'run-2')).toEqual([production.id]);
        expect(await found(['run.id'], 'run-1')).toEqual([nearMisses.id]);
        expect(await found(['Env'], 'staging')).toEqual([nearMisses.id]);
        expect(await found(['env'], 'staging ')).toEqual([spaced.id]);
        // Numbers and booleans by the text JSON writes for them; strings as they are.
        expect(await found(['count'], '5')).toEqual(ids([asStrings, scalars]));
        expect(await found(['ok'], 'true')).toEqual(ids([asStrings, scalars]));
        expect(await found(['off'], 'false')).toEqual([scalars.id]);
        expect(await found(['ratio'], '1.5')).toEqual([scalars.id]);
        expect(await found(['big'], '1e+21')).toEqual([scalars.id]);
        for (const [key, value] of [
          ['count', '5.0'],
          ['count', ' 5'],
          ['ratio', '1.50'],
          ['big', '1e21'],
          ['ok', 'True'],
          ['ok', '1'],
        ] as const)
          expect(await found([key], value), `${key} = ${value}`).toEqual([]);
        // Arrays, objects and null match nothing; a key never reaches into an array or a string.
        expect(await found(['nil'], 'null')).toEqual([]);
        expect(await found(['obj'], '{"env":"staging"}')).toEqual([]);
        expect(await found(['env', '0'], 'staging')).toEqual([]);
        expect(await found(['list', '0', 'id'], 'run-1')).toEqual([]);
        expect(await found(['list', 'id'], 'run-1')).toEqual([]);
        expect(await found(['run', '0'], 'r')).toEqual([]);
        expect(await found(['obj', 'env'], 'staging')).toEqual([notStrings.id]);
        // Keys and values are taken as they are, whatever characters they hold.
        expect(await found(['a"b\\c\'d'], 'x\'y"z\\')).toEqual([awkward.id]);
        expect(await found(['é ✓ 🚀'], 'line\nbreak\ttab\u0001\u2028')).toEqual([awkward.id]);
        expect(await found([''], 'empty')).toEqual([awkward.id]);
        expect(await found(['[0]'], '*')).toEqual([awkward.id]);
        expect(await found(['*'], 'empty')).toEqual([]);
        expect(await found(["') or 1=1 --"], "' or '1'='1")).toEqual([]);
        expect(await found(['missing'], 'staging')).toEqual([]);
        // With a status, paged, and counted like the page.
        const running = await list(['env'], 'staging', { status: 'RUNNING' });
        expect(ids(running.sessions)).toEqual([staging.id]);
        expect(running.total).toBe(1);
        expect(await list(['env'], 'staging', { offset: 1 })).toMatchObject({ total: 2 });
        expect(ids((await list(['env'], 'staging', { offset: 1 })).sessions)).toEqual([staging.id]);
        expect(await list(['env'], 'nowhere')).toEqual({ sessions: [], total: 0 });
        expect(
          ids(
            (await sessions.list(P2, { metadata: { path: ['env'], value: 'staging' }, limit: 10, offset: 0 }))
              .sessions,
          ),
        ).toEqual([elsewhere.id]);
        // Everything is still there, unfiltered.
        expect((await sessions.list(P1, { limit: 20, offset: 0 })).total).toBe(9);
      });

      it('lists only the project’s PENDING and RUNNING sessions as active', async () => {
        const sessions = await setUp();
        const running = session({ status: 'RUNNING' });
        const pending = session({ status: 'PENDING' });
        await addAll(sessions, [
          running,
          pending,
          session({ status: 'COMPLETED' }),
          session({ status: 'ERROR' }),
          session({ status: 'TIMED_OUT' }),
          session({ status: 'RUNNING', projectId: P2 }),
        ]);
        const active = await sessions.listActiveInProject(P1);
        expect(ids(active).sort()).toEqual([running.id, pending.id].sort());
        expect(active.every((s) => s instanceof BrowserSession && s.isActive)).toBe(true);
        expect(await sessions.listActiveInProject('0190c000-0000-7000-8000-0000000000a3')).toEqual([]);
      });
    });

    describe('statistics', () => {
      it('answers zeros, with every status key, for a project without sessions', async () => {
        const sessions = await setUp();
        expect(await sessions.stats(P1, new Date(base))).toEqual({
          total: 0,
          byStatus: { PENDING: 0, RUNNING: 0, COMPLETED: 0, ERROR: 0, TIMED_OUT: 0 },
          createdLast24h: 0,
          avgDurationSec: 0,
          totalBrowserSec: 0,
          totalProxyBytes: 0,
        });
      });

      it('counts, averages ended sessions only and sums browser time with active ones up to now', async () => {
        const sessions = await setUp();
        const now = new Date(base + 48 * HOUR);
        const ago = (ms: number) => new Date(now.getTime() - ms);
        const span = (start: Date, ms: number) => new Date(start.getTime() + ms);
        // Active: 600 s + 60 s + 30 s up to now.
        await sessions.add(session({ status: 'RUNNING', createdAt: ago(600 * SEC) }));
        await sessions.add(session({ status: 'RUNNING', createdAt: ago(60 * SEC) }));
        await sessions.add(session({ status: 'PENDING', createdAt: ago(30 * SEC) }));
        // Ended: 100.5 s (created just inside 24 h), 300 s, 200 s (created just outside 24 h).
        const inside = ago(24 * HOUR - SEC);
        await sessions.add(
          session({ status: 'COMPLETED', createdAt: inside, endedAt: span(inside, 100_500) }),
        );
        const old = ago(30 * HOUR);
        await sessions.add(session({ status: 'ERROR', createdAt: old, endedAt: span(old, 300 * SEC) }));
        const outside = ago(24 * HOUR + SEC);
        await sessions.add(
          session({ status: 'TIMED_OUT', createdAt: outside, endedAt: span(outside, 200 * SEC) }),
        );
        // Another project's sessions count for nothing here.
        await sessions.add(session({ projectId: P2, status: 'RUNNING', createdAt: ago(10 * HOUR) }));
        await sessions.add(
          session({ projectId: P2, status: 'COMPLETED', createdAt: ago(HOUR), endedAt: ago(1) }),
        );

        const stats = await sessions.stats(P1, now);
        expect(stats.total).toBe(6);
        expect(stats.byStatus).toEqual({ PENDING: 1, RUNNING: 2, COMPLETED: 1, ERROR: 1, TIMED_OUT: 1 });
        expect(stats.createdLast24h).toBe(4);
        expect(stats.avgDurationSec).toBeCloseTo((100.5 + 300 + 200) / 3, 3);
        expect(stats.totalBrowserSec).toBeCloseTo(600 + 60 + 30 + 100.5 + 300 + 200, 3);

        // An hour later only the active sessions have grown: 3 × 3600 s more.
        const later = await sessions.stats(P1, new Date(now.getTime() + HOUR));
        expect(later.totalBrowserSec).toBeCloseTo(1290.5 + 3 * 3600, 3);
        expect(later.avgDurationSec).toBeCloseTo((100.5 + 300 + 200) / 3, 3);
        expect(later.createdLast24h).toBe(3);
      });
      it('counts a session that ended before it started (a provider clock ahead of ours) as 0 s', async () => {
        const sessions = await setUp();
        const now = new Date(base + 48 * HOUR);
        const startedAt = new Date(now.getTime() - HOUR);
        // Ended 30 s "before" it started, 0 s, and 90 s; an active one whose start lies 20 s ahead of now.
        await sessions.add(
          session({ status: 'COMPLETED', startedAt, endedAt: new Date(startedAt.getTime() - 30 * SEC) }),
        );
        await sessions.add(session({ status: 'ERROR', startedAt, endedAt: startedAt }));
        await sessions.add(
          session({ status: 'TIMED_OUT', startedAt, endedAt: new Date(startedAt.getTime() + 90 * SEC) }),
        );
        await sessions.add(session({ status: 'RUNNING', startedAt: new Date(now.getTime() + 20 * SEC) }));

        const stats = await sessions.stats(P1, now);
        expect(stats.total).toBe(4);
        expect(stats.avgDurationSec).toBeCloseTo(30, 3);
        expect(stats.totalBrowserSec).toBeCloseTo(90, 3);
      });
    });

    describe('proxy bytes', () => {
      const providerIdOf = (s: BrowserSession) => s.providerSessionId;
      const bytesOf = async (sessions: SessionRepository, list: BrowserSession[]) =>
        Promise.all(list.map(async (s) => (await sessions.findInProject(s.projectId, s.id))?.proxyBytes));

      it('adds each delta to its session by provider session id, ended ones too, and returns those that matched none', async () => {
        const sessions = await setUp();
        const running = session({ proxyBytes: 10 });
        const ended = session({ status: 'COMPLETED' });
        const other = session({ projectId: P2 });
        const untouched = session();
        await addAll(sessions, [running, ended, other, untouched]);
        const unmatched = await sessions.addProxyBytes([
          { providerSessionId: providerIdOf(running), bytes: 1000 },
          { providerSessionId: providerIdOf(ended), bytes: 4_294_967_296 },
          { providerSessionId: 'not-stored-yet', bytes: 7 },
          { providerSessionId: providerIdOf(other), bytes: 5 },
          // A second delta for one session in the same call adds up.
          { providerSessionId: providerIdOf(running), bytes: 24 },
        ]);
        expect(unmatched).toEqual([{ providerSessionId: 'not-stored-yet', bytes: 7 }]);
        expect(await bytesOf(sessions, [running, ended, other, untouched])).toEqual([
          1034, 4_294_967_296, 5, 0,
        ]);
        const listed = (await sessions.list(P1, { limit: 10, offset: 0 })).sessions;
        expect(listed.find((s) => s.id === running.id)?.proxyBytes).toBe(1034);
        expect(await sessions.addProxyBytes([])).toEqual([]);
      });

      it('loses no increment to concurrent adds', async () => {
        const sessions = await setUp();
        const s = session();
        await sessions.add(s);
        await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            sessions.addProxyBytes([{ providerSessionId: providerIdOf(s), bytes: i + 1 }]),
          ),
        );
        expect(await bytesOf(sessions, [s])).toEqual([210]);
      });

      it('update never lowers them (a writer read them before an add), and raises them to a provider’s higher count', async () => {
        const sessions = await setUp();
        const s = session();
        await sessions.add(s);
        const stale = (await sessions.findInProject(P1, s.id))!;
        await sessions.addProxyBytes([{ providerSessionId: providerIdOf(s), bytes: 500 }]);
        stale.applyProviderSnapshot(
          { ...snapshotOf(stale), connectUrl: 'wss://browsers.example/moved' },
          new Date(base + HOUR),
        );
        await sessions.update(stale);
        expect(await sessions.findInProject(P1, s.id)).toMatchObject({
          connectUrl: 'wss://browsers.example/moved',
          proxyBytes: 500,
        });
        // The provider's own count (Browserbase's proxyBytes), higher than the stored one.
        stale.applyProviderSnapshot({ ...snapshotOf(stale), proxyBytes: 9000 }, new Date(base + 2 * HOUR));
        await sessions.update(stale);
        expect(await bytesOf(sessions, [s])).toEqual([9000]);
        stale.end('COMPLETED', new Date(base + 3 * HOUR));
        await sessions.updateStatus(stale);
        expect(await bytesOf(sessions, [s])).toEqual([9000]);
      });

      it('sums them over the project in stats, and per bucket of creation in the series', async () => {
        const sessions = await setUp();
        const at = (h: number) => new Date(base + h * HOUR);
        const first = session({ createdAt: at(1), proxyBytes: 100 });
        const second = session({ createdAt: new Date(at(1).getTime() + 60 * SEC), status: 'COMPLETED' });
        const third = session({ createdAt: at(2) });
        const elsewhere = session({ projectId: P2, createdAt: at(1), proxyBytes: 1 });
        await addAll(sessions, [first, second, third, elsewhere]);
        await sessions.addProxyBytes([
          { providerSessionId: providerIdOf(second), bytes: 3_000_000_000 },
          { providerSessionId: providerIdOf(third), bytes: 50 },
        ]);
        expect((await sessions.stats(P1, at(3))).totalProxyBytes).toBe(3_000_000_150);
        expect((await sessions.stats(P2, at(3))).totalProxyBytes).toBe(1);
        const series = await sessions.statsSeries(P1, {
          interval: 'hour',
          from: at(0),
          to: at(3),
          now: at(3),
        });
        // Hours from 12:00 to 15:00 (`to` lies just past 15:00): the sessions created at 13:00 and 14:00.
        expect(series.map((b) => b.proxyBytes)).toEqual([0, 3_000_000_100, 50, 0]);
      });
    });

    describe('counting uploads', () => {
      /** Counts uploads of `s` until one is refused; how many were counted. */
      async function countAll(sessions: SessionRepository, s: BrowserSession, max: number): Promise<number> {
        let counted = 0;
        while (await sessions.countUpload(s.projectId, s.id, max)) counted++;
        return counted;
      }

      it('counts up to max per session, then refuses, and keeps sessions and projects apart', async () => {
        const sessions = await setUp();
        const s = session();
        const other = session();
        const elsewhere = session({ projectId: P2 });
        await addAll(sessions, [s, other, elsewhere]);
        expect(await countAll(sessions, s, 3)).toBe(3);
        expect(await sessions.countUpload(P1, s.id, 3)).toBe(false);
        // A higher max counts on from what is stored.
        expect(await sessions.countUpload(P1, s.id, 4)).toBe(true);
        expect(await sessions.countUpload(P1, s.id, 4)).toBe(false);
        expect(await countAll(sessions, other, 3)).toBe(3);
        // Another project's id, an unknown one, one that is no id of ours: nothing counted.
        expect(await sessions.countUpload(P1, elsewhere.id, 3)).toBe(false);
        expect(await sessions.countUpload(P2, s.id, 10)).toBe(false);
        expect(await sessions.countUpload(P1, '0190c000-0000-7000-8000-00000000dead', 3)).toBe(false);
        expect(await sessions.countUpload(P1, 'not-a-uuid', 3)).toBe(false);
        expect(await countAll(sessions, elsewhere, 3)).toBe(3);
      });

      it('takes back one upload at a time, never below zero, and only in its own project', async () => {
        const sessions = await setUp();
        const s = session();
        await sessions.add(s);
        expect(await countAll(sessions, s, 2)).toBe(2);
        await sessions.uncountUpload(P2, s.id);
        expect(await sessions.countUpload(P1, s.id, 2)).toBe(false);
        await sessions.uncountUpload(P1, s.id);
        expect(await sessions.countUpload(P1, s.id, 2)).toBe(true);
        for (let i = 0; i < 4; i++) await sessions.uncountUpload(P1, s.id);
        expect(await countAll(sessions, s, 2)).toBe(2);
        await sessions.uncountUpload(P1, 'not-a-uuid');
      });

      it('never counts past max under concurrent uploads', async () => {
        const sessions = await setUp();
        const s = session();
        await sessions.add(s);
        const results = await Promise.all(
          Array.from({ length: 12 }, () => sessions.countUpload(P1, s.id, 5)),
        );
        expect(results.filter(Boolean)).toHaveLength(5);
        expect(await sessions.countUpload(P1, s.id, 5)).toBe(false);
      });

      it('is not reset by a write of the session (update, updateStatus), and counts ended sessions as stored', async () => {
        const sessions = await setUp();
        const s = session();
        await sessions.add(s);
        expect(await countAll(sessions, s, 2)).toBe(2);
        const stored = (await sessions.findInProject(P1, s.id))!;
        stored.applyProviderSnapshot(snapshotOf(stored), new Date(base + HOUR));
        await sessions.update(stored);
        stored.end('COMPLETED', new Date(base + 2 * HOUR));
        await sessions.updateStatus(stored);
        expect(await sessions.countUpload(P1, s.id, 2)).toBe(false);
        expect(await sessions.countUpload(P1, s.id, 3)).toBe(true);
      });
    });

    describeStatsSeriesContract({ setUp, session, projectId: P1, otherProjectId: P2 });

    describe('claiming for sync', () => {
      const now = new Date(base + 10 * HOUR);
      const leaseUntil = new Date(now.getTime() + 30 * SEC);
      const syncedAt = (minutes: number) => new Date(base + minutes * 60 * SEC);

      it('claims the least recently synced active sessions up to the limit, never a terminal one', async () => {
        const sessions = await setUp();
        const s4 = session({ lastSyncedAt: syncedAt(40) });
        const s1 = session({ lastSyncedAt: syncedAt(10), status: 'PENDING' });
        const s5 = session({ lastSyncedAt: syncedAt(50), projectId: P2 });
        const s2 = session({ lastSyncedAt: syncedAt(20), projectId: P2 });
        const s3 = session({ lastSyncedAt: syncedAt(30) });
        const ended = ['COMPLETED', 'ERROR', 'TIMED_OUT'] as const;
        const terminal = ended.map((status, i) => session({ status, lastSyncedAt: syncedAt(i + 1) }));
        await addAll(sessions, [s4, s1, s5, ...terminal, s2, s3]);

        const first = await sessions.claimForSync(now, leaseUntil, 3);
        expect(ids(first)).toEqual(ids([s1, s2, s3]));
        expect(first.every((s) => s instanceof BrowserSession && s.isActive)).toBe(true);
        expect(fieldsOf(first[0]!)).toEqual(fieldsOf(s1));

        expect(ids(await sessions.claimForSync(now, leaseUntil, 10))).toEqual(ids([s4, s5]));
        expect(await sessions.claimForSync(now, leaseUntil, 10)).toEqual([]);
      });

      it('does not hand a claimed session out again before its lease ends, and does after', async () => {
        const sessions = await setUp();
        const s = session({ lastSyncedAt: syncedAt(1) });
        await sessions.add(s);
        expect(ids(await sessions.claimForSync(now, leaseUntil, 5))).toEqual([s.id]);
        const justBefore = new Date(leaseUntil.getTime() - 1);
        expect(await sessions.claimForSync(justBefore, new Date(justBefore.getTime() + 30 * SEC), 5)).toEqual(
          [],
        );
        const again = await sessions.claimForSync(leaseUntil, new Date(leaseUntil.getTime() + 30 * SEC), 5);
        expect(ids(again)).toEqual([s.id]);
      });

      it('hands a session out again once update ended the claim, and never once it ended', async () => {
        const sessions = await setUp();
        const synced = session({ lastSyncedAt: syncedAt(1) });
        const ending = session({ lastSyncedAt: syncedAt(2) });
        await addAll(sessions, [synced, ending]);
        const [claimedSynced, claimedEnding] = await sessions.claimForSync(now, leaseUntil, 5);
        expect(ids([claimedSynced!, claimedEnding!])).toEqual(ids([synced, ending]));

        claimedSynced!.applyProviderSnapshot(snapshotOf(claimedSynced!), now);
        await sessions.update(claimedSynced!);
        claimedEnding!.end('COMPLETED', now);
        await sessions.update(claimedEnding!);

        const soon = new Date(now.getTime() + SEC);
        const again = await sessions.claimForSync(soon, new Date(soon.getTime() + 30 * SEC), 5);
        expect(ids(again)).toEqual([synced.id]);
        expect(again[0]!.lastSyncedAt.toISOString()).toBe(now.toISOString());
        const afterLease = new Date(leaseUntil.getTime() + HOUR);
        const afterLeaseClaim = await sessions.claimForSync(
          afterLease,
          new Date(afterLease.getTime() + SEC),
          5,
        );
        expect(ids(afterLeaseClaim)).toEqual([synced.id]);
      });

      it('with a cut-off, claims only sessions last synced strictly before it', async () => {
        const sessions = await setUp();
        const older = session({ lastSyncedAt: syncedAt(10) });
        const atCutOff = session({ lastSyncedAt: syncedAt(20) });
        const newer = session({ lastSyncedAt: syncedAt(30) });
        await addAll(sessions, [newer, atCutOff, older]);
        expect(ids(await sessions.claimForSync(now, leaseUntil, 10, syncedAt(20)))).toEqual([older.id]);
        expect(ids(await sessions.claimForSync(now, leaseUntil, 10))).toEqual(ids([atCutOff, newer]));
      });

      it('with a scope, claims sessions of no instance or of its own, and others’ once expired by its cut-off', async () => {
        const sessions = await setUp();
        const cutOff = new Date(now.getTime() - 300 * SEC);
        const ofNone = session({ lastSyncedAt: syncedAt(1), expiresAt: new Date(now.getTime() + HOUR) });
        const mine = session({
          lastSyncedAt: syncedAt(2),
          instanceId: 'a',
          expiresAt: new Date(now.getTime() + HOUR),
        });
        const theirs = session({
          lastSyncedAt: syncedAt(3),
          instanceId: 'b',
          expiresAt: new Date(cutOff.getTime() + 1),
        });
        const theirsAtCutOff = session({ lastSyncedAt: syncedAt(4), instanceId: 'b', expiresAt: cutOff });
        const theirsLongAgo = session({
          lastSyncedAt: syncedAt(5),
          instanceId: 'b',
          expiresAt: new Date(base),
          projectId: P2,
        });
        const theirsNoExpiry = session({ lastSyncedAt: syncedAt(6), instanceId: 'b' });
        const theirsEnded = session({
          lastSyncedAt: syncedAt(7),
          instanceId: 'b',
          status: 'COMPLETED',
          expiresAt: new Date(base),
        });
        const all = [ofNone, mine, theirs, theirsAtCutOff, theirsLongAgo, theirsNoExpiry, theirsEnded];
        await addAll(sessions, all);
        const scoped = await sessions.claimForSync(now, leaseUntil, 10, undefined, {
          instanceId: 'a',
          othersExpiredBefore: cutOff,
        });
        expect(ids(scoped)).toEqual(ids([ofNone, mine, theirsAtCutOff, theirsLongAgo]));
        expect(scoped.map((s) => s.providerInstanceId)).toEqual([null, 'a', 'b', 'b']);
        // A claimer of no instance (Browserbase) takes sessions of none and others' expired ones.
        const fresh = await setUp();
        await addAll(fresh, all);
        const ofNoInstance = await fresh.claimForSync(now, leaseUntil, 10, undefined, {
          instanceId: null,
          othersExpiredBefore: cutOff,
        });
        expect(ids(ofNoInstance)).toEqual(ids([ofNone, theirsAtCutOff, theirsLongAgo]));
        // Without a scope, every active session.
        expect(ids(await fresh.claimForSync(now, leaseUntil, 10))).toEqual(
          ids([mine, theirs, theirsNoExpiry]),
        );
      });

      it('postponeSync holds the claim until the given time and changes nothing else', async () => {
        const sessions = await setUp();
        const s = session({ lastSyncedAt: syncedAt(1) });
        const ended = session({ status: 'COMPLETED', lastSyncedAt: syncedAt(2) });
        await addAll(sessions, [s, ended]);
        const [claimed] = await sessions.claimForSync(now, leaseUntil, 5);
        const backOffUntil = new Date(now.getTime() + 10 * 60 * SEC);
        await sessions.postponeSync(claimed!, backOffUntil);
        await sessions.postponeSync(ended, backOffUntil);
        expect(fieldsOf((await sessions.findInProject(P1, s.id))!)).toEqual(fieldsOf(s));
        // Past the claim's own lease, still held; free at the postponed time.
        const afterLease = new Date(leaseUntil.getTime() + SEC);
        expect(await sessions.claimForSync(afterLease, new Date(afterLease.getTime() + SEC), 5)).toEqual([]);
        const justBefore = new Date(backOffUntil.getTime() - 1);
        expect(await sessions.claimForSync(justBefore, new Date(justBefore.getTime() + SEC), 5)).toEqual([]);
        const later = await sessions.claimForSync(backOffUntil, new Date(backOffUntil.getTime() + SEC), 5);
        expect(ids(later)).toEqual([s.id]);
        expect((await sessions.findInProject(P1, ended.id))?.status).toBe('COMPLETED');
      });

      it('listActiveHeldBy lists the active sessions one instance holds, oldest first, in every project, up to the limit', async () => {
        const sessions = await setUp();
        const first = session({ instanceId: 'lost', projectId: P2 });
        const second = session({ instanceId: 'lost' });
        const third = session({ instanceId: 'lost', status: 'PENDING' });
        const ended = session({ instanceId: 'lost', status: 'COMPLETED' });
        const elsewhere = session({ instanceId: 'alive' });
        const nobody = session();
        for (const s of [first, second, third, ended, elsewhere, nobody]) await sessions.add(s);
        expect(ids(await sessions.listActiveHeldBy('lost', 10))).toEqual([first.id, second.id, third.id]);
        expect(ids(await sessions.listActiveHeldBy('lost', 2))).toEqual([first.id, second.id]);
        expect(await sessions.listActiveHeldBy('unknown', 10)).toEqual([]);
      });

      it('updateStatus stores status, endedAt and updatedAt only, ends the claim, and keeps a terminal status final', async () => {
        const sessions = await setUp();
        const s = session({ lastSyncedAt: syncedAt(1) });
        const other = session({ lastSyncedAt: syncedAt(2) });
        await addAll(sessions, [s, other]);
        const [claimed] = await sessions.claimForSync(now, leaseUntil, 1);
        const endedAt = new Date(now.getTime() + 123);
        // The refresh it could not store: a new URL and expiry, which updateStatus must not write.
        claimed!.applyProviderSnapshot(
          {
            ...snapshotOf(claimed!),
            connectUrl: 'wss://unstored.example',
            expiresAt: new Date(base + 9 * HOUR),
          },
          new Date(now.getTime() + 50),
        );
        claimed!.end('ERROR', endedAt);
        await sessions.updateStatus(claimed!);
        const found = (await sessions.findInProject(P1, s.id))!;
        expect(fieldsOf(found)).toEqual({
          ...fieldsOf(s),
          status: 'ERROR',
          endedAt: endedAt.toISOString(),
          updatedAt: endedAt.toISOString(),
        });
        expect(found.isActive).toBe(false);
        // Another terminal status does not replace it; a copy in another project changes nothing.
        const late = (await sessions.findInProject(P1, s.id))!;
        writableCopy(late, { status: 'RUNNING' }).end('COMPLETED', new Date(now.getTime() + HOUR));
        await sessions.updateStatus(late);
        expect((await sessions.findInProject(P1, s.id))?.status).toBe('ERROR');
        const elsewhere = writableCopy(other, { projectId: P2 });
        elsewhere.end('ERROR', endedAt);
        await sessions.updateStatus(elsewhere);
        expect((await sessions.findInProject(P1, other.id))?.status).toBe('RUNNING');
        // Ended, `s` is out of the rotation; `other` is still there to claim.
        expect(ids(await sessions.claimForSync(now, leaseUntil, 5))).toEqual([other.id]);
      });

      it('never gives one session to two of 20 concurrent claimers', async () => {
        const sessions = await setUp();
        const all = Array.from({ length: 10 }, (_, i) =>
          session({ lastSyncedAt: syncedAt(i + 1), projectId: i % 2 ? P1 : P2 }),
        );
        await addAll(sessions, all);
        const claims = await Promise.all(
          Array.from({ length: 20 }, () => sessions.claimForSync(now, leaseUntil, 3)),
        );
        expect(claims.every((c) => c.length <= 3)).toBe(true);
        const claimed = claims.flatMap(ids);
        expect(new Set(claimed).size).toBe(claimed.length);
        // Whatever no claimer got is still free: together they are every session, each once.
        const rest = ids(await sessions.claimForSync(now, leaseUntil, 10));
        expect([...claimed, ...rest].sort()).toEqual(ids(all).sort());
      });
    });
  });
}
