import { PruneOldRuns, type RunLogLine } from '@browserdeck/domain';
import { ManualClock } from '@browserdeck/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type DatabaseDialect,
  MikroOrmAgentRepository,
  MikroOrmProjectRepository,
  MikroOrmRunLogStore,
  MikroOrmRunRepository,
} from '../packages/adapters/src/persistence/mikro-orm/index.ts';
import { ENDED_BEFORE } from '../packages/adapters/src/persistence/mikro-orm/runRetentionStatements.ts';
import {
  LAPSED,
  QUEUED_RUNS,
  runListStatements,
} from '../packages/adapters/src/persistence/mikro-orm/runStatements.ts';
import { openTestOrm, type TestOrm } from './mikroOrm.ts';
import { givenProject, makeAgent, makeRun, newSecretBox, OWNER, testId } from './sessionFixtures.ts';

const P1 = testId(1, 1);
const P2 = testId(1, 2);
const NOW = new Date('2026-03-10T12:00:00.000Z');
const SEALED = /^v1\.[\w-]{8}\.[\w-]{16}\.[\w-]{22}\.[\w-]+$/;
type Row = Record<string, unknown>;

const line = (seq: number, message = `line ${seq}`): RunLogLine => ({
  seq,
  timestamp: new Date(NOW.getTime() + seq),
  stream: 'stdout',
  message,
});

/** What lands in `runs` and `run_logs`: sealed secrets, cascades, the indexes the worker's reads use. */
export function describeMikroOrmRunStorage(dialect: DatabaseDialect): void {
  describe(`MikroORM run storage (${dialect})`, () => {
    let db: TestOrm;
    const secrets = newSecretBox();
    const rows = (sql: string, params: unknown[] = []) =>
      db.orm.em.getConnection().execute<Row[]>(sql, params);
    const runs = () => new MikroOrmRunRepository({ orm: db.orm, secrets });
    const logs = () => new MikroOrmRunLogStore({ orm: db.orm });

    beforeAll(async () => {
      db = await openTestOrm(dialect);
    });
    afterAll(() => db?.close());
    beforeEach(async () => {
      await db.reset();
      await givenProject(db.orm, P1);
      await givenProject(db.orm, P2);
    });

    it("stores env and the session request's env sealed: no plaintext in the row, both read back", async () => {
      const run = makeRun({
        id: testId(4, 1),
        projectId: P1,
        env: { RUN_SECRET: 'plaintext-run-secret-42' },
      });
      Object.assign(run, {
        sessionRequest: {
          agentId: testId(3, 1),
          region: 'local',
          env: { AGENT_KEY: 'plaintext-agent-key-43' },
        },
      });
      await runs().add(run);
      const [row] = (await rows('select * from runs')) as [Row];
      const text = JSON.stringify(row);
      for (const secret of ['plaintext-run-secret-42', 'RUN_SECRET', 'plaintext-agent-key-43', 'AGENT_KEY'])
        expect(text).not.toContain(secret);
      expect(row.env).toMatch(SEALED);
      const request = (
        typeof row.session_request === 'string' ? JSON.parse(row.session_request) : row.session_request
      ) as Row;
      expect(request).toEqual({ agentId: testId(3, 1), region: 'local', env: expect.stringMatching(SEALED) });
      const found = await runs().findById(run.id);
      expect(found?.env).toEqual({ RUN_SECRET: 'plaintext-run-secret-42' });
      expect(found?.sessionRequest?.env).toEqual({ AGENT_KEY: 'plaintext-agent-key-43' });
      // A compare-and-set write seals again (a fresh ciphertext), never writes the plain values.
      run.start('i-1/0', NOW);
      expect(await runs().update(run, 'QUEUED')).toBe(true);
      const [updated] = (await rows('select env from runs')) as [Row];
      expect(updated.env).toMatch(SEALED);
      expect(updated.env).not.toBe(row.env);
    });

    it("removes a deleted project's runs and their log lines (on delete cascade), and no other project's", async () => {
      const mine = makeRun({ id: testId(4, 1), projectId: P1 });
      const other = makeRun({ id: testId(4, 2), projectId: P2 });
      await runs().add(mine);
      await runs().add(other);
      await logs().append(mine.id, [line(1), line(2)]);
      await logs().append(other.id, [line(1)]);
      expect(await new MikroOrmProjectRepository({ orm: db.orm }).delete(OWNER, P1)).toBe(true);
      expect(await rows('select id from runs')).toEqual([{ id: other.id }]);
      expect((await rows('select run_id, seq from run_logs')).map((r) => [r.run_id, Number(r.seq)])).toEqual([
        [other.id, 1],
      ]);
      // The worker of a deleted run learns it from its heartbeat, and its last lines go nowhere.
      mine.start('i-1/0', NOW);
      expect(await runs().update(mine, 'QUEUED')).toBe(false);
      await logs().append(mine.id, [line(3)]);
      expect(await rows('select seq from run_logs where run_id = ?', [mine.id])).toEqual([]);
    });

    it('keeps agent_id on a run after its agent is deleted (no foreign key)', async () => {
      const agents = new MikroOrmAgentRepository({ orm: db.orm, secrets });
      const agent = makeAgent({ id: testId(3, 1), projectId: P1 });
      await agents.add(agent);
      await runs().add(makeRun({ id: testId(4, 1), projectId: P1, agentId: agent.id, sessionId: null }));
      expect(await agents.delete(P1, agent.id)).toBe(true);
      expect((await runs().findById(testId(4, 1)))?.agentId).toBe(agent.id);
      const page = await runs().list(P1, { agentId: agent.id, limit: 10, offset: 0 });
      expect(page.runs.map((r) => r.id)).toEqual([testId(4, 1)]);
    });

    it('stores a NUL (which PostgreSQL text and jsonb refuse) as U+FFFD in log lines and JSON columns', async () => {
      const run = makeRun({ id: testId(4, 1), projectId: P1 });
      await runs().add(run);
      await logs().append(run.id, [line(1, 'a\u0000b')]);
      expect((await logs().read(run.id, 0, 10)).map((l) => l.message)).toEqual(['a\uFFFDb']);
      run.start('i-1/0', NOW);
      run.end(
        { status: 'SUCCEEDED', result: { 'k\u0000': 'v\u0000', literal: '\\u0000' }, exitCode: 0 },
        NOW,
      );
      expect(await runs().update(run, 'QUEUED')).toBe(true);
      expect((await runs().findById(run.id))?.result).toEqual({ 'k\uFFFD': 'v\uFFFD', literal: '\\u0000' });
    });

    it('answers a list filter that is no UUID with an empty page, not a database error', async () => {
      await runs().add(makeRun({ id: testId(4, 1), projectId: P1 }));
      expect(await runs().list(P1, { agentId: 'nope', limit: 10, offset: 0 })).toEqual({
        runs: [],
        total: 0,
      });
      expect(await runs().list(P1, { sessionId: "x' or 1=1", limit: 10, offset: 0 })).toEqual({
        runs: [],
        total: 0,
      });
      expect(await runs().list('nope', { limit: 10, offset: 0 })).toEqual({ runs: [], total: 0 });
      expect(await logs().read('nope', 0, 10)).toEqual([]);
    });

    it('deletes runs past their retention and their log lines in batches, and keeps recent and active ones', async () => {
      const day = 86_400_000;
      const at = (days: number) => new Date(NOW.getTime() - days * day);
      const old = Array.from({ length: 7 }, (_, i) =>
        makeRun({ id: testId(5, i + 1), projectId: i % 2 ? P1 : P2 }),
      );
      const recent = makeRun({ id: testId(5, 20), projectId: P1 });
      const queued = makeRun({ id: testId(5, 21), projectId: P1, now: at(400) });
      const running = makeRun({ id: testId(5, 22), projectId: P2, now: at(400) });
      old.forEach((run, i) => {
        run.start('i-1/0', at(100 - i));
        run.end({ status: 'SUCCEEDED', result: i, exitCode: 0 }, at(40 - i));
      });
      recent.start('i-1/0', at(40));
      recent.end({ status: 'FAILED', error: { code: 'script_error', message: 'x' }, exitCode: 1 }, at(29));
      running.start('i-1/0', at(400));
      for (const run of [...old, recent, queued, running]) {
        await runs().add(run);
        await logs().append(run.id, [line(1), line(2), line(3)]);
      }
      const clock = new ManualClock(NOW.toISOString());
      const prune = new PruneOldRuns({ runs: runs(), runLogs: logs(), clock, batchSize: 3, logBatchSize: 4 });
      expect(await prune.execute()).toEqual({ runs: 7, logLines: 21 });
      const left = [recent, queued, running].map((r) => r.id).sort();
      expect((await rows('select id from runs')).map((r) => r.id).sort()).toEqual(left);
      const lines = await rows('select run_id from run_logs');
      expect([...new Set(lines.map((r) => r.run_id))].sort()).toEqual(left);
      expect(lines).toHaveLength(9);
      expect(await prune.execute()).toEqual({ runs: 0, logLines: 0 });
    });

    if (dialect === 'sqlite') {
      it("reads the worker's queue, lapsed runs and a project's list through their indexes", async () => {
        const plan = async (query: { sql: string; parameters: readonly unknown[] }) =>
          (await rows(`explain query plan ${query.sql}`, [...query.parameters]))
            .map((s) => s.detail)
            .join('; ');
        expect(await plan(QUEUED_RUNS.compile(db.orm, { limit: 5 }))).toMatch(
          /USING (COVERING )?INDEX runs_queued_created_at_index/,
        );
        expect(await plan(LAPSED.compile(db.orm, { before: NOW, limit: 5 }))).toMatch(
          /USING (COVERING )?INDEX runs_running_heartbeat_at_index/,
        );
        expect(await plan(ENDED_BEFORE.compile(db.orm, { before: NOW, limit: 5 }))).toMatch(
          /USING (COVERING )?INDEX runs_ended_at_index/,
        );
        const list = (query: object) => runListStatements(db.orm, P1, { limit: 5, offset: 0, ...query }).page;
        expect(await plan(list({}))).toMatch(/USING INDEX runs_project_id_created_at_index/);
        expect(await plan(list({ status: 'QUEUED' }))).toMatch(
          /USING INDEX runs_project_id_status_created_at_index/,
        );
        expect(await plan(list({ agentId: testId(3, 1) }))).toMatch(
          /USING INDEX runs_project_id_agent_id_created_at_index/,
        );
        expect(await plan(list({ sessionId: testId(9, 1) }))).toMatch(
          /USING INDEX runs_project_id_session_id_created_at_index/,
        );
      });
    }
  });
}
