import type { RunRepository, RunStatus, SessionRequest } from '@browserdeck/domain';
import { RUN_STATUSES, Run } from '@browserdeck/domain';
import { describe, expect, it } from 'vitest';
import { AWKWARD_NAME, AWKWARD_OPAQUE, AWKWARD_TEXT } from './awkwardText.ts';

/** A fresh, empty run store, and a way to create the project rows its runs belong to. */
export interface RunRepositoryFixture {
  runs: RunRepository;
  /** Makes `projectId` exist (database stores need the row for their foreign key). */
  givenProject(projectId: string): Promise<void>;
}

const P1 = '0190e000-0000-7000-8000-0000000000a1';
const P2 = '0190e000-0000-7000-8000-0000000000a2';
const OWNER = '0190e000-0000-7000-8000-00000000a11c';
const OTHER_OWNER = '0190e000-0000-7000-8000-00000000b22d';
const AGENT_A = '0190e000-0000-7000-8000-0000000a9e01';
const AGENT_B = '0190e000-0000-7000-8000-0000000a9e02';
const SESSION_A = '0190e000-0000-7000-8000-00000005e501';
const SEC = 1000;

/** What a test says about a run it needs; everything else gets a plain default. */
interface RunSpec {
  projectId?: string;
  agentId?: string | null;
  sessionId?: string | null;
  createdAt?: Date;
  /** Moves it there through the entity's own methods (started by `workerId`, ended a minute later). */
  status?: RunStatus;
  workerId?: string;
  /** When it was started and last beat (RUNNING): `createdAt` unless told. */
  heartbeatAt?: Date;
}

/** Every own field of the entity, dates as ISO strings, so a comparison covers each one to the millisecond. */
function fieldsOf(run: Run): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(run).map(([key, value]) => [key, value instanceof Date ? value.toISOString() : value]),
  );
}

const ids = (runs: Run[]) => runs.map((r) => r.id);

/** A copy of the stored run, as a second writer holding it would have it. */
function copyOf(run: Run): Run {
  return Run.restore({ ...run });
}

/**
 * Behaviour every `RunRepository` must have (http-api.md §11): round trips (JSON input, result and
 * session request, the env), compare-and-set status writes that a stale writer loses (also under
 * concurrency), the worker's heartbeat, newest-first filtered paging, and the worker's reads
 * (`listLapsed`, `listQueued`, `listActiveInProject`, `countByStatus`). `create` gives a fresh,
 * empty store.
 */
export function describeRunRepositoryContract(
  name: string,
  options: { create: () => Promise<RunRepositoryFixture> },
): void {
  describe(`RunRepository contract: ${name}`, () => {
    let seq = 0;
    const base = Date.parse('2026-03-03T09:00:00.321Z');

    function run(spec: RunSpec = {}): Run {
      seq++;
      const createdAt = spec.createdAt ?? new Date(base + seq * SEC);
      const created = Run.create({
        id: `0190e000-0000-7000-8000-${String(seq).padStart(12, '0')}`,
        projectId: spec.projectId ?? P1,
        ownerId: OWNER,
        agentId: spec.agentId === undefined ? null : spec.agentId,
        sessionId: spec.sessionId === undefined ? SESSION_A : spec.sessionId,
        script: `return ${seq};`,
        input: { n: seq },
        env: {},
        timeoutSec: 60,
        sessionRequest: null,
        now: createdAt,
      });
      const status = spec.status ?? 'QUEUED';
      if (status === 'QUEUED') return created;
      created.start(spec.workerId ?? 'instance-1/0', spec.heartbeatAt ?? createdAt);
      if (status === 'RUNNING') return created;
      const endedAt = new Date(createdAt.getTime() + 60 * SEC);
      if (status === 'SUCCEEDED') created.end({ status, result: seq, exitCode: 0 }, endedAt, 10);
      else if (status === 'CANCELED') created.cancel(endedAt);
      else created.end({ status, error: { code: 'script_error', message: 'boom' }, exitCode: 1 }, endedAt);
      return created;
    }

    async function setUp(): Promise<RunRepository> {
      const fixture = await options.create();
      await fixture.givenProject(P1);
      await fixture.givenProject(P2);
      return fixture.runs;
    }

    async function addAll(runs: RunRepository, list: Run[]): Promise<void> {
      for (const r of list) await runs.add(r);
    }

    describe('storing', () => {
      it('round-trips every field of an agent run: JSON input, env, session request, dates to the millisecond', async () => {
        const runs = await setUp();
        const sessionRequest: SessionRequest = {
          agentId: AGENT_A,
          region: 'eu-central-1',
          timeoutSec: 330,
          contextId: 'ctx-1',
          extensionId: null,
          env: { TOKEN: 'sk-1' },
        };
        const original = Run.create({
          id: '0190e000-0000-7000-8000-0000000a0001',
          projectId: P1,
          ownerId: OWNER,
          agentId: AGENT_A,
          sessionId: null,
          script: 'await page.goto(input.url);\nreturn await page.title(); // ünïcode 🚀',
          input: {
            url: 'https://example.com',
            tags: ['a', 'b'],
            n: 1.5,
            ok: true,
            none: null,
            deep: { x: [1] },
          },
          env: { API_KEY: 'sk-123', EMPTY: '', _X1: 'a=b;c "quoted"' },
          timeoutSec: 21_600,
          sessionRequest,
          now: new Date(base + 7),
        });
        await runs.add(original);
        const found = await runs.findById(original.id);
        expect(found).toBeInstanceOf(Run);
        expect(fieldsOf(found!)).toEqual(fieldsOf(original));
        expect(found!.sessionRequest).toEqual(sessionRequest);
        expect(found!.ownsSession).toBe(true);
        expect(fieldsOf((await runs.findInProject(P1, original.id))!)).toEqual(fieldsOf(original));
      });

      it('round-trips a run that ended: result, error, exit code, worker and times', async () => {
        const runs = await setUp();
        const succeeded = run({ status: 'RUNNING', workerId: 'i-1/1' });
        await runs.add(succeeded);
        succeeded.attachSession(SESSION_A);
        succeeded.beat(new Date(base + 500_001), 123);
        succeeded.end(
          { status: 'SUCCEEDED', result: { title: 'Example ✓', items: [1, 'two', null] }, exitCode: 0 },
          new Date(base + 600_009),
          4567,
        );
        expect(await runs.update(succeeded, 'RUNNING')).toBe(true);
        const found = await runs.findInProject(P1, succeeded.id);
        expect(fieldsOf(found!)).toEqual(fieldsOf(succeeded));
        expect(found).toMatchObject({ status: 'SUCCEEDED', workerId: null, logBytes: 4567, exitCode: 0 });
        expect(found!.durationMs).toBe(succeeded.durationMs);

        const failed = run({ status: 'TIMED_OUT' });
        await runs.add(failed);
        expect(fieldsOf((await runs.findById(failed.id))!)).toEqual(fieldsOf(failed));
        expect((await runs.findById(failed.id))!.error).toEqual({ code: 'script_error', message: 'boom' });
      });

      it('round-trips every kind of JSON value as input and result, falsy ones included', async () => {
        const runs = await setUp();
        for (const value of [null, 0, false, '', 'text "q" 🚀', 3.25, [], [1, 'a', null, { b: [] }], {}]) {
          const original = run({ status: 'RUNNING' });
          Object.assign(original, { input: value });
          await runs.add(original);
          original.end({ status: 'SUCCEEDED', result: value, exitCode: 0 }, new Date(base + 1));
          expect(await runs.update(original, 'RUNNING')).toBe(true);
          const found = await runs.findById(original.id);
          expect(found!.input).toEqual(value);
          expect(found!.result).toEqual(value);
        }
      });

      it('round-trips awkward characters in the script, env, input and log of an error', async () => {
        const runs = await setUp();
        const original = Run.create({
          id: '0190e000-0000-7000-8000-0000000a0002',
          projectId: P1,
          ownerId: OWNER,
          agentId: null,
          sessionId: SESSION_A,
          script: AWKWARD_OPAQUE,
          input: { [AWKWARD_OPAQUE]: AWKWARD_TEXT, list: [AWKWARD_NAME, { '?': "'" }] },
          env: { AWKWARD: AWKWARD_OPAQUE, EMPTY: '' },
          timeoutSec: 1,
          sessionRequest: null,
          now: new Date(base),
        });
        await runs.add(original);
        original.start('i-1/0', new Date(base + 1));
        original.end(
          { status: 'FAILED', error: { code: 'script_error', message: AWKWARD_TEXT }, exitCode: null },
          new Date(base + 2),
        );
        expect(await runs.update(original, 'QUEUED')).toBe(true);
        expect(fieldsOf((await runs.findById(original.id))!)).toEqual(fieldsOf(original));
      });

      it('round-trips an empty env and a null input', async () => {
        const runs = await setUp();
        const original = run();
        Object.assign(original, { input: null, env: {} });
        await runs.add(original);
        const found = await runs.findById(original.id);
        expect(found!.env).toEqual({});
        expect(found!.input).toBeNull();
        expect(found!.sessionRequest).toBeNull();
      });

      it('finds a run only in its own project; unknown ids find nothing', async () => {
        const runs = await setUp();
        const mine = run({ projectId: P1 });
        await runs.add(mine);
        expect((await runs.findInProject(P1, mine.id))?.id).toBe(mine.id);
        expect(await runs.findInProject(P2, mine.id)).toBeNull();
        expect(await runs.findInProject(P1, '0190e000-0000-7000-8000-00000000dead')).toBeNull();
        expect(await runs.findById('0190e000-0000-7000-8000-00000000dead')).toBeNull();
      });
    });

    describe('compare-and-set writes', () => {
      it('stores the run when the stored status is the expected one', async () => {
        const runs = await setUp();
        const queued = run();
        await runs.add(queued);
        queued.start('i-1/0', new Date(base + 5 * SEC));
        expect(await runs.update(queued, 'QUEUED')).toBe(true);
        expect(await runs.findById(queued.id)).toMatchObject({ status: 'RUNNING', workerId: 'i-1/0' });
      });

      it('refuses a writer whose expected status is stale, and keeps what is stored', async () => {
        const runs = await setUp();
        const stored = run({ status: 'RUNNING' });
        await runs.add(stored);
        const worker = copyOf(stored);
        const canceler = copyOf(stored);
        canceler.cancel(new Date(base + 10 * SEC), 'Canceled by the user.');
        expect(await runs.update(canceler, 'RUNNING')).toBe(true);
        worker.end({ status: 'SUCCEEDED', result: 'late', exitCode: 0 }, new Date(base + 11 * SEC));
        expect(await runs.update(worker, 'RUNNING')).toBe(false);
        const found = await runs.findById(stored.id);
        expect(found).toMatchObject({
          status: 'CANCELED',
          result: null,
          error: { code: 'canceled', message: 'Canceled by the user.' },
        });
        expect(found!.endedAt?.toISOString()).toBe(new Date(base + 10 * SEC).toISOString());
      });

      it('refuses a second claim of a queued run: the second worker loses', async () => {
        const runs = await setUp();
        const stored = run();
        await runs.add(stored);
        const first = copyOf(stored);
        const second = copyOf(stored);
        first.start('i-1/0', new Date(base + SEC));
        second.start('i-2/0', new Date(base + SEC));
        expect(await runs.update(first, 'QUEUED')).toBe(true);
        expect(await runs.update(second, 'QUEUED')).toBe(false);
        expect((await runs.findById(stored.id))!.workerId).toBe('i-1/0');
      });

      it('lets exactly one of many concurrent writers with the same expected status win', async () => {
        const runs = await setUp();
        const stored = run();
        await runs.add(stored);
        const writers = Array.from({ length: 8 }, (_, i) => {
          const copy = copyOf(stored);
          copy.start(`i-${i}/0`, new Date(base + SEC));
          return copy;
        });
        const results = await Promise.all(writers.map((w) => runs.update(w, 'QUEUED')));
        expect(results.filter(Boolean)).toHaveLength(1);
        const winner = writers[results.indexOf(true)]!;
        expect((await runs.findById(stored.id))!.workerId).toBe(winner.workerId);
      });

      it('returns false for a run that is not stored', async () => {
        const runs = await setUp();
        const ghost = run();
        expect(await runs.update(ghost, 'QUEUED')).toBe(false);
        expect(await runs.findById(ghost.id)).toBeNull();
      });

      it('stores a requeue (RUNNING back to QUEUED) and clears the worker', async () => {
        const runs = await setUp();
        const stored = run({ status: 'RUNNING' });
        await runs.add(stored);
        stored.requeue();
        expect(await runs.update(stored, 'RUNNING')).toBe(true);
        expect(await runs.findById(stored.id)).toMatchObject({
          status: 'QUEUED',
          workerId: null,
          startedAt: null,
          heartbeatAt: null,
        });
      });
    });

    describe('heartbeat', () => {
      it('records heartbeatAt and logBytes while the run is RUNNING by that worker, and nothing else', async () => {
        const runs = await setUp();
        const stored = run({ status: 'RUNNING', workerId: 'i-1/0' });
        await runs.add(stored);
        const beating = copyOf(stored);
        beating.beat(new Date(base + 90 * SEC + 3), 2048);
        // A heartbeat writes only its own fields, never a status it happens to carry.
        Object.assign(beating, { exitCode: 9 });
        expect(await runs.heartbeat(beating)).toBe(true);
        const found = await runs.findById(stored.id);
        expect(found!.heartbeatAt?.toISOString()).toBe(new Date(base + 90 * SEC + 3).toISOString());
        expect(found).toMatchObject({ logBytes: 2048, status: 'RUNNING', exitCode: null });
      });

      it('answers false once the run is no longer RUNNING, and leaves it as stored', async () => {
        const runs = await setUp();
        const stored = run({ status: 'RUNNING', workerId: 'i-1/0' });
        await runs.add(stored);
        const worker = copyOf(stored);
        const canceled = copyOf(stored);
        canceled.cancel(new Date(base + 30 * SEC));
        expect(await runs.update(canceled, 'RUNNING')).toBe(true);
        worker.beat(new Date(base + 40 * SEC), 99);
        expect(await runs.heartbeat(worker)).toBe(false);
        const found = await runs.findById(stored.id);
        expect(found).toMatchObject({ status: 'CANCELED', logBytes: 0 });
        expect(found!.heartbeatAt?.toISOString()).toBe(stored.heartbeatAt?.toISOString());
      });

      it('answers false for another worker than the one running it, and for a run not stored', async () => {
        const runs = await setUp();
        const stored = run({ status: 'RUNNING', workerId: 'i-1/0' });
        await runs.add(stored);
        const impostor = copyOf(stored);
        Object.assign(impostor, { workerId: 'i-2/0' });
        impostor.beat(new Date(base + 50 * SEC), 5);
        expect(await runs.heartbeat(impostor)).toBe(false);
        expect((await runs.findById(stored.id))!.logBytes).toBe(0);
        const queued = run();
        await runs.add(queued);
        expect(await runs.heartbeat(queued)).toBe(false);
        expect(await runs.heartbeat(run({ status: 'RUNNING' }))).toBe(false);
      });
    });

    describe('listing', () => {
      it('lists a project newest first (createdAt, then id), with the total', async () => {
        const runs = await setUp();
        const at = new Date(base + 1000 * SEC);
        const older = run({ createdAt: new Date(base) });
        const sameTimeA = run({ createdAt: at });
        const sameTimeB = run({ createdAt: at });
        const newest = run({ createdAt: new Date(base + 2000 * SEC) });
        const elsewhere = run({ projectId: P2 });
        await addAll(runs, [sameTimeA, older, newest, elsewhere, sameTimeB]);
        const page = await runs.list(P1, { limit: 10, offset: 0 });
        expect(ids(page.runs)).toEqual([newest.id, sameTimeB.id, sameTimeA.id, older.id]);
        expect(page.total).toBe(4);
        expect(page.runs[0]).toBeInstanceOf(Run);
        expect(fieldsOf(page.runs[0]!)).toEqual(fieldsOf(newest));
      });

      it('pages with limit and offset; the total counts every match', async () => {
        const runs = await setUp();
        const all = Array.from({ length: 5 }, (_, i) => run({ createdAt: new Date(base + i * SEC) }));
        await addAll(runs, all);
        const newestFirst = ids(all).reverse();
        expect(await runs.list(P1, { limit: 2, offset: 0 }).then((p) => [ids(p.runs), p.total])).toEqual([
          newestFirst.slice(0, 2),
          5,
        ]);
        expect(ids((await runs.list(P1, { limit: 2, offset: 2 })).runs)).toEqual(newestFirst.slice(2, 4));
        expect(ids((await runs.list(P1, { limit: 2, offset: 4 })).runs)).toEqual(newestFirst.slice(4));
        const past = await runs.list(P1, { limit: 2, offset: 9 });
        expect(past).toEqual({ runs: [], total: 5 });
      });

      it('filters by agentId, sessionId and status, alone and together', async () => {
        const runs = await setUp();
        const agentAQueued = run({ agentId: AGENT_A, sessionId: null });
        const agentARunning = run({ agentId: AGENT_A, sessionId: SESSION_A, status: 'RUNNING' });
        const agentBDone = run({ agentId: AGENT_B, sessionId: null, status: 'SUCCEEDED' });
        const adHocRunning = run({ agentId: null, sessionId: SESSION_A, status: 'RUNNING' });
        const otherProject = run({ projectId: P2, agentId: AGENT_A, status: 'RUNNING' });
        await addAll(runs, [agentAQueued, agentARunning, agentBDone, adHocRunning, otherProject]);
        const listed = async (query: Parameters<RunRepository['list']>[1]) => {
          const page = await runs.list(P1, query);
          return { ids: ids(page.runs).sort(), total: page.total };
        };
        const expectIds = (list: Run[]) => ({ ids: ids(list).sort(), total: list.length });
        expect(await listed({ agentId: AGENT_A, limit: 10, offset: 0 })).toEqual(
          expectIds([agentAQueued, agentARunning]),
        );
        expect(await listed({ sessionId: SESSION_A, limit: 10, offset: 0 })).toEqual(
          expectIds([agentARunning, adHocRunning]),
        );
        expect(await listed({ status: 'RUNNING', limit: 10, offset: 0 })).toEqual(
          expectIds([agentARunning, adHocRunning]),
        );
        expect(await listed({ agentId: AGENT_A, status: 'RUNNING', limit: 10, offset: 0 })).toEqual(
          expectIds([agentARunning]),
        );
        expect(
          await listed({ agentId: AGENT_B, sessionId: SESSION_A, status: 'SUCCEEDED', limit: 10, offset: 0 }),
        ).toEqual({ ids: [], total: 0 });
        expect(await listed({ status: 'CANCELED', limit: 10, offset: 0 })).toEqual({ ids: [], total: 0 });
      });

      it('lists RUNNING runs whose heartbeat is strictly before the cut-off, oldest first, up to the limit', async () => {
        const runs = await setUp();
        const cutOff = new Date(base + 100 * SEC);
        const lapsedOld = run({ status: 'RUNNING', heartbeatAt: new Date(base + 10 * SEC), projectId: P2 });
        const lapsedNew = run({ status: 'RUNNING', heartbeatAt: new Date(base + 50 * SEC) });
        const lapsedMid = run({ status: 'RUNNING', heartbeatAt: new Date(base + 30 * SEC) });
        const atCutOff = run({ status: 'RUNNING', heartbeatAt: cutOff });
        const fresh = run({ status: 'RUNNING', heartbeatAt: new Date(base + 150 * SEC) });
        const queued = run({ createdAt: new Date(base) });
        const ended = run({ status: 'FAILED', createdAt: new Date(base) });
        await addAll(runs, [lapsedNew, fresh, queued, lapsedOld, atCutOff, ended, lapsedMid]);
        expect(ids(await runs.listLapsed(cutOff, 10))).toEqual([lapsedOld.id, lapsedMid.id, lapsedNew.id]);
        expect(ids(await runs.listLapsed(cutOff, 2))).toEqual([lapsedOld.id, lapsedMid.id]);
        const beaten = (await runs.findById(lapsedOld.id))!;
        beaten.beat(new Date(base + 200 * SEC), 1);
        expect(await runs.heartbeat(beaten)).toBe(true);
        expect(ids(await runs.listLapsed(cutOff, 10))).toEqual([lapsedMid.id, lapsedNew.id]);
      });

      it('lists QUEUED runs of every project oldest first, up to the limit', async () => {
        const runs = await setUp();
        const second = run({ createdAt: new Date(base + 20 * SEC), projectId: P2 });
        const first = run({ createdAt: new Date(base + 10 * SEC) });
        const third = run({ createdAt: new Date(base + 30 * SEC) });
        const running = run({ status: 'RUNNING', createdAt: new Date(base) });
        const done = run({ status: 'CANCELED', createdAt: new Date(base) });
        await addAll(runs, [third, running, second, done, first]);
        expect(ids(await runs.listQueued(10))).toEqual([first.id, second.id, third.id]);
        expect(ids(await runs.listQueued(2))).toEqual([first.id, second.id]);
        expect((await runs.listQueued(1))[0]).toBeInstanceOf(Run);
      });

      it("counts an account's QUEUED runs over all its projects, and no one else's", async () => {
        const runs = await setUp();
        const other = Run.restore({
          ...run(),
          id: '0190e000-0000-7000-8000-0000000fffff',
          ownerId: OTHER_OWNER,
        });
        await addAll(runs, [
          run(),
          run({ projectId: P2 }),
          run({ status: 'RUNNING' }),
          run({ status: 'FAILED' }),
          other,
        ]);
        expect(await runs.countQueuedOfOwner(OWNER)).toBe(2);
        expect(await runs.countQueuedOfOwner(OTHER_OWNER)).toBe(1);
        expect(await runs.countQueuedOfOwner('0190e000-0000-7000-8000-00000000aaaa')).toBe(0);
      });

      it("lists a project's QUEUED and RUNNING runs only", async () => {
        const runs = await setUp();
        const queued = run();
        const running = run({ status: 'RUNNING' });
        const finished = [
          run({ status: 'SUCCEEDED' }),
          run({ status: 'FAILED' }),
          run({ status: 'TIMED_OUT' }),
          run({ status: 'CANCELED' }),
        ];
        const elsewhere = run({ projectId: P2, status: 'RUNNING' });
        await addAll(runs, [queued, running, ...finished, elsewhere]);
        expect(ids(await runs.listActiveInProject(P1)).sort()).toEqual([queued.id, running.id].sort());
        expect(ids(await runs.listActiveInProject(P2))).toEqual([elsewhere.id]);
      });

      it('counts runs by status over every project, zero for a status none has', async () => {
        const runs = await setUp();
        const empty = await runs.countByStatus();
        expect(empty).toEqual(Object.fromEntries(RUN_STATUSES.map((s) => [s, 0])));
        await addAll(runs, [
          run(),
          run({ projectId: P2 }),
          run({ status: 'RUNNING' }),
          run({ status: 'SUCCEEDED', projectId: P2 }),
          run({ status: 'SUCCEEDED' }),
          run({ status: 'SUCCEEDED' }),
          run({ status: 'CANCELED' }),
        ]);
        expect(await runs.countByStatus()).toEqual({
          QUEUED: 2,
          RUNNING: 1,
          SUCCEEDED: 3,
          FAILED: 0,
          TIMED_OUT: 0,
          CANCELED: 1,
        });
      });
    });

    describe('retention', () => {
      // `run()` ends a terminal run 60 s after it was created.
      const endingAt = (at: number) => new Date(base + at * SEC - 60 * SEC);

      it('lists terminal runs of every project that ended before the cut-off, longest ended first, up to the limit', async () => {
        const runs = await setUp();
        const cutOff = new Date(base + 1000 * SEC);
        const succeeded = run({ status: 'SUCCEEDED', createdAt: endingAt(160) });
        const failed = run({ status: 'FAILED', createdAt: endingAt(70), projectId: P2 });
        const timedOut = run({ status: 'TIMED_OUT', createdAt: endingAt(260) });
        const canceled = run({ status: 'CANCELED', createdAt: endingAt(360) });
        const sameEndA = run({ status: 'SUCCEEDED', createdAt: endingAt(500) });
        const sameEndB = run({ status: 'FAILED', createdAt: endingAt(500) });
        const atCutOff = run({ status: 'SUCCEEDED', createdAt: endingAt(1000) });
        const recent = run({ status: 'SUCCEEDED', createdAt: endingAt(2000) });
        // Older than any of them, but not over: never listed.
        const queued = run({ createdAt: new Date(base - 100 * SEC) });
        const running = run({ status: 'RUNNING', createdAt: new Date(base - 100 * SEC) });
        await addAll(runs, [recent, sameEndB, queued, canceled, succeeded, atCutOff, running, failed]);
        await addAll(runs, [timedOut, sameEndA]);
        const longestEnded = [failed, succeeded, timedOut, canceled, sameEndA, sameEndB];
        expect(await runs.listEndedBefore(cutOff, 100)).toEqual(ids(longestEnded));
        expect(await runs.listEndedBefore(cutOff, 2)).toEqual(ids(longestEnded.slice(0, 2)));
        expect(await runs.listEndedBefore(new Date(base), 100)).toEqual([]);
      });

      it('deletes only the terminal runs among the ids it is given, and answers how many', async () => {
        const runs = await setUp();
        const old = [
          run({ status: 'SUCCEEDED', createdAt: endingAt(10) }),
          run({ status: 'CANCELED', createdAt: endingAt(20), projectId: P2 }),
        ];
        const kept = run({ status: 'FAILED', createdAt: endingAt(30) });
        const queued = run({ createdAt: new Date(base) });
        const running = run({ status: 'RUNNING', createdAt: new Date(base) });
        await addAll(runs, [...old, kept, queued, running]);
        const unknown = '0190e000-0000-7000-8000-00000000dead';
        expect(await runs.deleteEnded([...ids(old), queued.id, running.id, unknown, 'not-a-uuid'])).toBe(2);
        for (const gone of old) expect(await runs.findById(gone.id)).toBeNull();
        for (const still of [kept, queued, running])
          expect((await runs.findById(still.id))?.id).toBe(still.id);
        expect(await runs.listEndedBefore(new Date(base + 1000 * SEC), 100)).toEqual([kept.id]);
        expect(await runs.deleteEnded(ids(old))).toBe(0);
        expect(await runs.deleteEnded([])).toBe(0);
        expect((await runs.list(P1, { limit: 10, offset: 0 })).total).toBe(3);
      });

      it('lists and deletes a batch of a few hundred runs at a time', async () => {
        const runs = await setUp();
        const old = Array.from({ length: 260 }, (_, i) =>
          run({ status: 'SUCCEEDED', createdAt: endingAt(10 + i), projectId: i % 2 ? P1 : P2 }),
        );
        await addAll(runs, old);
        const cutOff = new Date(base + 1000 * SEC);
        const batch = await runs.listEndedBefore(cutOff, 250);
        expect(batch).toEqual(ids(old.slice(0, 250)));
        expect(await runs.deleteEnded(batch)).toBe(250);
        expect(await runs.listEndedBefore(cutOff, 250)).toEqual(ids(old.slice(250)));
      });
    });
  });
}
