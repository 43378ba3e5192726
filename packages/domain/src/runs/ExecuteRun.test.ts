import { givenRunWorld } from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { utf8Length } from '../shared/checks.ts';
import { RUN_REQUEUE_BACKOFF_MS } from './ExecuteRun.ts';
import { RUN_SHUTDOWN_MESSAGE } from './runEndingOf.ts';
import {
  RUN_HEARTBEAT_INTERVAL_MS,
  RUN_LOG_LINE_CUT_MARK,
  RUN_LOG_LINE_MAX_BYTES,
  RUN_RESULT_MAX_BYTES,
} from './runRules.ts';
import type { ScriptOutcome } from './ScriptRunner.ts';
import { StopSource } from './StopSource.ts';

const WORKER = 'instance-1/0';

async function setUp(options: { maxLogBytes?: number } = {}) {
  const world = await givenRunWorld(options);
  const agent = await world.givenAgent({
    script: 'return await page.title();',
    envVars: { TOKEN: 't' },
    region: 'eu-central-1',
    timeoutSec: 120,
    contextId: null,
    extensionId: null,
  });
  const signal = new StopSource();
  const execute = (runId: string, stop = signal) =>
    world.runs.execute.execute({ runId, workerId: WORKER, signal: stop });
  const stored = async (runId: string) => (await world.runRepository.findById(runId))!;
  const lines = (runId: string) =>
    world.runLogs.linesOf(runId).map((l) => `${l.seq} ${l.stream} ${l.message}`);
  const releases = () => world.provider.calls.filter((c) => c.op === 'release');
  return { ...world, agent, signal, execute, stored, lines, releases };
}

describe('ExecuteRun: an agent run', () => {
  it('creates its session with the agent’s settings, runs the script, stores result and logs, and releases the session', async () => {
    const {
      startAgentRun,
      agent,
      execute,
      scriptRunner,
      provider,
      sessions,
      stored,
      lines,
      clock,
      runChanges,
    } = await setUp();
    const run = await startAgentRun(agent, { input: { q: 1 }, env: { EXTRA: 'x' } });
    scriptRunner.willPlay({
      output: [
        'hello',
        { stream: 'stderr', message: 'warn' },
        { stream: 'console', message: 'page says hi' },
      ],
      outcome: { kind: 'returned', resultJson: '{"title":"Example"}', exitCode: 0 },
    });
    clock.advance(1_000);
    await execute(run.id);

    const [create] = provider.calls.filter((c) => c.op === 'create');
    expect(create).toMatchObject({ request: { region: 'eu-central-1', timeoutSec: 150, contextId: null } });
    const ended = await stored(run.id);
    const session = (await sessions.findInProject(run.projectId, ended.sessionId!))!;
    expect(scriptRunner.jobs).toEqual([
      {
        runId: run.id,
        script: 'return await page.title();',
        input: { q: 1 },
        env: { TOKEN: 't', EXTRA: 'x' },
        timeoutMs: 120_000,
        cdpUrl: session.connectUrl,
      },
    ]);
    expect(ended).toMatchObject({
      status: 'SUCCEEDED',
      result: { title: 'Example' },
      error: null,
      exitCode: 0,
      workerId: null,
      startedAt: clock.now(),
      endedAt: clock.now(),
    });
    expect(lines(run.id)).toEqual([
      `1 system session ${session.id} ready`,
      '2 stdout hello',
      '3 stderr warn',
      '4 console page says hi',
      `5 system session ${session.id} is released as the run ends`,
    ]);
    // Every stored byte counts: each line's stream name as well as its message.
    expect(ended.logBytes).toBe(
      lines(run.id).reduce((n, l) => n + l.split(' ').slice(1).join(' ').length - 1, 0),
    );
    expect(session.status).toBe('COMPLETED');
    expect(provider.running).toEqual([]);
    expect(runChanges.notified.filter((id) => id === run.id).length).toBeGreaterThanOrEqual(3);
  });

  it.each<[string, ScriptOutcome, Record<string, unknown>]>([
    [
      'a thrown error',
      { kind: 'failed', code: 'script_error', message: 'boom', exitCode: 1 },
      { status: 'FAILED', error: { code: 'script_error', message: 'boom' }, exitCode: 1 },
    ],
    [
      'a syntax error',
      { kind: 'failed', code: 'script_invalid', message: 'Unexpected token', exitCode: 1 },
      { status: 'FAILED', error: { code: 'script_invalid', message: 'Unexpected token' } },
    ],
    [
      'the deadline',
      { kind: 'timed_out', exitCode: null },
      {
        status: 'TIMED_OUT',
        error: { code: 'timed_out', message: 'The run passed its timeoutSec of 120 s.' },
      },
    ],
    [
      'a result over the limit',
      { kind: 'returned', resultJson: `"${'x'.repeat(RUN_RESULT_MAX_BYTES)}"`, exitCode: 0 },
      { status: 'FAILED', result: null, error: { code: 'result_too_large' } },
    ],
    [
      'a result that is not JSON',
      { kind: 'returned', resultJson: '{nope', exitCode: 0 },
      { status: 'FAILED', error: { code: 'result_too_large', message: 'The returned value is not JSON.' } },
    ],
    [
      'a result holding NUL',
      { kind: 'returned', resultJson: '"a\\u0000b"', exitCode: 0 },
      { status: 'FAILED', error: { code: 'result_too_large' } },
    ],
    [
      'undefined returned',
      { kind: 'returned', resultJson: 'null', exitCode: 0 },
      { status: 'SUCCEEDED', result: null },
    ],
  ])('ends as the outcome says: %s, and releases the session', async (_, outcome, expected) => {
    const { startAgentRun, agent, execute, scriptRunner, stored, provider } = await setUp();
    const run = await startAgentRun(agent);
    scriptRunner.willPlay({ outcome });
    await execute(run.id);
    expect(await stored(run.id)).toMatchObject(expected);
    expect(provider.running).toEqual([]);
  });

  it('answers the run before its session is released, and frees the worker only once it is', async () => {
    const { startAgentRun, agent, execute, scriptRunner, provider, stored, sessions } = await setUp();
    const run = await startAgentRun(agent);
    scriptRunner.willPlay({ outcome: { kind: 'returned', resultJson: '"done"', exitCode: 0 } });
    const release = provider.release.bind(provider);
    let letGo: (() => void) | undefined;
    provider.release = async (...args) => {
      await new Promise<void>((resolve) => {
        letGo = resolve;
      });
      return release(...args);
    };
    let executed = false;
    const executing = execute(run.id).then(() => {
      executed = true;
    });
    while (!letGo) await Promise.resolve();
    const answered = await stored(run.id);
    expect(answered).toMatchObject({ status: 'SUCCEEDED', result: 'done' });
    expect((await sessions.findInProject(run.projectId, answered.sessionId!))?.status).toBe('RUNNING');
    expect(executed).toBe(false);
    letGo();
    await executing;
    expect((await sessions.findInProject(run.projectId, answered.sessionId!))?.status).toBe('COMPLETED');
  });

  it('fails session_failed when the session cannot be created, running no script', async () => {
    const { startAgentRun, agent, execute, scriptRunner, stored, provider, releases } = await setUp();
    const run = await startAgentRun(agent);
    provider.failNext('create', 'provider_error');
    await execute(run.id);
    expect(await stored(run.id)).toMatchObject({
      status: 'FAILED',
      error: { code: 'session_failed', message: expect.stringContaining('provider_error') },
    });
    expect(scriptRunner.jobs).toEqual([]);
    expect(releases()).toEqual([]);
  });

  it('fails runner_failed when the script’s process cannot start, and still releases the session', async () => {
    const { startAgentRun, agent, execute, scriptRunner, stored, provider } = await setUp();
    const run = await startAgentRun(agent);
    scriptRunner.willPlay({ rejectWith: new Error('spawn EACCES /secret/path') });
    await execute(run.id);
    expect(await stored(run.id)).toMatchObject({
      status: 'FAILED',
      error: { code: 'runner_failed', message: "The script's process could not be started." },
    });
    expect(provider.running).toEqual([]);
  });

  it('waits QUEUED with the provider’s Retry-After on a 429, then runs on the next pick-up, its log lines numbered on', async () => {
    const { startAgentRun, agent, execute, scriptRunner, stored, provider, runQueue, lines } = await setUp();
    const run = await startAgentRun(agent);
    provider.failNext('create', 'provider_rate_limited', 7);
    await execute(run.id);
    expect(await stored(run.id)).toMatchObject({
      status: 'QUEUED',
      workerId: null,
      startedAt: null,
      error: null,
    });
    expect(runQueue.enqueued).toEqual([
      { runId: run.id, ownerId: run.ownerId, delayMs: undefined },
      { runId: run.id, ownerId: run.ownerId, delayMs: 7_000 },
    ]);
    expect(lines(run.id)).toEqual([
      '1 system the browser provider is at capacity; the run waits queued and tries again in 7 s',
    ]);
    expect(scriptRunner.jobs).toEqual([]);

    scriptRunner.willPlay({ output: ['ran'] });
    await execute(run.id);
    const ended = await stored(run.id);
    expect(ended.status).toBe('SUCCEEDED');
    expect(lines(run.id)).toEqual([
      '1 system the browser provider is at capacity; the run waits queued and tries again in 7 s',
      `2 system session ${ended.sessionId} ready`,
      '3 stdout ran',
      `4 system session ${ended.sessionId} is released as the run ends`,
    ]);
  });

  it('backs off by RUN_REQUEUE_BACKOFF_MS on a 429 without Retry-After', async () => {
    const { startAgentRun, agent, execute, provider, runQueue } = await setUp();
    const run = await startAgentRun(agent);
    provider.failNext('create', 'provider_rate_limited');
    await execute(run.id);
    expect(runQueue.enqueued.at(-1)).toEqual({
      runId: run.id,
      ownerId: run.ownerId,
      delayMs: RUN_REQUEUE_BACKOFF_MS,
    });
  });

  it('claims a run once: a second worker, or a run already ended, does nothing', async () => {
    const { startAgentRun, agent, execute, scriptRunner, stored, runs, owner } = await setUp();
    const run = await startAgentRun(agent);
    await execute(run.id);
    await execute(run.id);
    expect(scriptRunner.jobs).toHaveLength(1);
    const canceled = await startAgentRun(agent);
    await runs.cancel.execute({ caller: owner, projectId: canceled.projectId, runId: canceled.id });
    await execute(canceled.id);
    expect(scriptRunner.jobs).toHaveLength(1);
    expect((await stored(canceled.id)).status).toBe('CANCELED');
    await execute('00000000-0000-7000-8000-00000000dead');
  });
});

describe('ExecuteRun: while the script runs', () => {
  it('beats every RUN_HEARTBEAT_INTERVAL_MS with the log bytes so far, and stops beating at the end', async () => {
    const { startAgentRun, agent, execute, scriptRunner, stored, timers, clock } = await setUp();
    const run = await startAgentRun(agent);
    scriptRunner.willPlay({ hold: true, output: ['abc'] });
    const done = execute(run.id);
    await scriptRunner.untilHeld();
    expect(timers.intervals).toEqual([RUN_HEARTBEAT_INTERVAL_MS]);
    clock.advance(5_000);
    timers.tick();
    await expect.poll(async () => (await stored(run.id)).heartbeatAt).toEqual(clock.now());
    expect((await stored(run.id)).logBytes).toBeGreaterThan(3);
    scriptRunner.finish();
    await done;
    expect(timers.active).toBe(0);
  });

  it('keeps a cancel stored meanwhile: the worker’s own end does not overwrite CANCELED', async () => {
    const { startAgentRun, agent, execute, scriptRunner, stored, runs, owner, provider } = await setUp();
    const run = await startAgentRun(agent);
    scriptRunner.willPlay({ hold: true });
    const done = execute(run.id);
    await scriptRunner.untilHeld();
    await runs.cancel.execute({ caller: owner, projectId: run.projectId, runId: run.id });
    scriptRunner.finish({ kind: 'returned', resultJson: '"late"', exitCode: 0 });
    await done;
    expect(await stored(run.id)).toMatchObject({
      status: 'CANCELED',
      result: null,
      error: { code: 'canceled', message: 'The run was canceled.' },
    });
    expect(provider.running).toEqual([]);
  });

  it('stops the script when its heartbeat is refused (canceled on another instance), and releases the session', async () => {
    const { startAgentRun, agent, execute, scriptRunner, stored, runs, owner, timers, provider } =
      await setUp();
    const run = await startAgentRun(agent);
    scriptRunner.willPlay({ hold: true });
    const done = execute(run.id);
    await scriptRunner.untilHeld();
    await runs.cancel.execute({ caller: owner, projectId: run.projectId, runId: run.id });
    timers.tick();
    await done;
    expect(scriptRunner.holding).toEqual([]);
    expect(await stored(run.id)).toMatchObject({
      status: 'CANCELED',
      error: { message: 'The run was canceled.' },
    });
    expect(provider.running).toEqual([]);
  });

  it('ends CANCELED because the server shut down when its signal aborts, releasing the session', async () => {
    const { startAgentRun, agent, execute, scriptRunner, stored, provider, lines } = await setUp();
    const run = await startAgentRun(agent);
    scriptRunner.willPlay({ hold: true });
    const shutdown = new StopSource();
    const done = execute(run.id, shutdown);
    await scriptRunner.untilHeld();
    shutdown.abort();
    await done;
    const ended = await stored(run.id);
    expect(ended).toMatchObject({
      status: 'CANCELED',
      error: { code: 'canceled', message: RUN_SHUTDOWN_MESSAGE },
    });
    expect(provider.running).toEqual([]);
    expect(lines(run.id).at(-1)).toBe(`2 system session ${ended.sessionId} is released as the run ends`);
  });

  it('takes no run when its signal has aborted already', async () => {
    const { startAgentRun, agent, execute, stored } = await setUp();
    const run = await startAgentRun(agent);
    const shutdown = new StopSource();
    shutdown.abort();
    await execute(run.id, shutdown);
    expect((await stored(run.id)).status).toBe('QUEUED');
  });
});

describe('ExecuteRun: output', () => {
  it('cuts long lines, and past the byte budget says so once and drops the rest', async () => {
    const { startAgentRun, agent, execute, scriptRunner, stored, runLogs } = await setUp({
      maxLogBytes: 40_000,
    });
    const run = await startAgentRun(agent);
    scriptRunner.willPlay({
      output: [
        'é'.repeat(RUN_LOG_LINE_MAX_BYTES),
        'x'.repeat(15_000),
        'y'.repeat(15_000),
        'z',
        'nul\u0000here',
      ],
      outcome: { kind: 'returned', resultJson: '1', exitCode: 0 },
    });
    await execute(run.id);
    const logs = runLogs.linesOf(run.id);
    expect(logs.map((l) => l.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(logs[1]!.message.endsWith(RUN_LOG_LINE_CUT_MARK)).toBe(true);
    expect(utf8Length(logs[1]!.message)).toBeLessThanOrEqual(RUN_LOG_LINE_MAX_BYTES);
    expect(logs[2]!.message).toBe('x'.repeat(15_000));
    expect(logs[3]).toMatchObject({
      stream: 'system',
      message: 'log limit of 40000 bytes reached; further output dropped',
    });
    expect(logs[4]!.message).toMatch(/^session .* is released as the run ends$/);
    const ended = await stored(run.id);
    expect(ended.status).toBe('SUCCEEDED');
    expect(ended.logBytes).toBe(logs.reduce((n, l) => n + l.stream.length + utf8Length(l.message), 0));
  });

  it('stores lines in batches while an append is in flight', async () => {
    const { startAgentRun, agent, execute, scriptRunner, runLogs } = await setUp();
    const run = await startAgentRun(agent);
    scriptRunner.willPlay({ output: Array.from({ length: 200 }, (_, i) => `line ${i}`) });
    await execute(run.id);
    expect(runLogs.linesOf(run.id)).toHaveLength(202);
    expect(runLogs.appends).toBeLessThanOrEqual(5);
  });

  it('replaces NUL in output, which no store can hold', async () => {
    const { startAgentRun, agent, execute, scriptRunner, runLogs } = await setUp();
    const run = await startAgentRun(agent);
    scriptRunner.willPlay({ output: ['a\u0000b'] });
    await execute(run.id);
    expect(runLogs.linesOf(run.id)[1]!.message).toBe('a\uFFFDb');
  });
});

describe('ExecuteRun: an ad-hoc run on a live session', () => {
  it('drives the session’s current CDP endpoint and leaves the session open', async () => {
    const { startSession, runs, owner, project, execute, scriptRunner, stored, provider, releases, lines } =
      await setUp();
    const session = await startSession({ script: 'return 1;' });
    const { run } = await runs.startSessionRun.execute({
      caller: owner,
      projectId: project.id,
      sessionId: session.id,
      request: {},
    });
    await execute(run.id);
    expect(scriptRunner.jobs[0]!.cdpUrl).toBe(session.connectUrl);
    expect(await stored(run.id)).toMatchObject({ status: 'SUCCEEDED', sessionId: session.id });
    expect(releases()).toEqual([]);
    expect(provider.running).toEqual([session.providerSessionId]);
    expect(lines(run.id)).toEqual([`1 system session ${session.id} ready`]);
  });

  it('fails session_failed when the session ended at the provider since', async () => {
    const { startSession, runs, owner, project, execute, scriptRunner, stored, provider } = await setUp();
    const session = await startSession({ script: 'return 1;' });
    const { run } = await runs.startSessionRun.execute({
      caller: owner,
      projectId: project.id,
      sessionId: session.id,
      request: {},
    });
    provider.setStatus(session.providerSessionId, 'TIMED_OUT');
    await execute(run.id);
    expect(await stored(run.id)).toMatchObject({
      status: 'FAILED',
      error: {
        code: 'session_failed',
        message: "The run's session could not be opened: The session has ended.",
      },
    });
    expect(scriptRunner.jobs).toEqual([]);
  });
});
