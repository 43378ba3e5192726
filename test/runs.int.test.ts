import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { descendantsOf, isRunning } from './processTree.ts';
import { expectAgentRunLog, type RunJson, type RunsUser, signUpUser, until } from './runsApi.ts';
import { type ServerProcess, startServerProcess } from './serverProcess.ts';

/**
 * Runs end to end (http-api.md §11) through the server started as `npm start` starts it, on SQLite,
 * over HTTP only: an agent run's result and session, failures, the deadline and cancel with nothing
 * left behind, and a script's environment (logs: runsLogs.int.test.ts).
 */

/** In the server's environment: no script may see any of them. */
const CANARY = `canary-${randomBytes(8).toString('hex')}`;
const SECRET_KEY = randomBytes(32).toString('hex');

let server: ServerProcess;
let dataDir: string;
let databaseUrl: string;
let user: RunsUser;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'browserdeck-runs-'));
  databaseUrl = `sqlite:${join(dataDir, 'runs-e2e.sqlite')}`;
  server = await startServerProcess(
    {
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      SECRET_KEY,
      BROWSERDECK_CANARY: CANARY,
      // No spare browser: every browser below the server is then a live session's.
      LOCAL_WARM_BROWSERS: '0',
    },
    60_000,
  );
  user = await signUpUser(server.url);
});

afterAll(async () => {
  const code = await server?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  expect(code).toBe(0);
});

/** The stored session of a run. */
const sessionOf = async (run: RunJson) => {
  const answer = await user.call<{ id: string; status: string; endedAt: string | null }>(
    'GET',
    `${user.base}/sessions/${run.sessionId}`,
  );
  expect(answer.status).toBe(200);
  return answer.body;
};

/** The session of an ended run once it has ended too: it is released after the run is answered. */
const endedSessionOf = (run: RunJson) =>
  until('the run’s session to end', async () => {
    const session = await sessionOf(run);
    return session.status === 'RUNNING' ? undefined : session;
  });

/** The Chromium browsers below the server (their main processes: `--user-data-dir`). */
const browsers = () =>
  new Map(
    [...descendantsOf(server.child.pid as number)].filter(([, cmd]) => cmd.includes('--user-data-dir=')),
  );

describe('an agent run', () => {
  it('returns a data: page’s title: 201 with wait, SUCCEEDED, and its session ends COMPLETED', async () => {
    const agentId = await user.agent('await page.goto(input.url); return await page.title();');
    const {
      status,
      body: run,
      headers,
    } = await user.start(agentId, {
      input: { url: 'data:text/html,<title>Hello runs</title><p>hi</p>' },
      wait: 30,
    });
    expect(status).toBe(201);
    expect(headers.get('location')).toBe(`${user.base}/runs/${run.id}`);
    expect(run).toMatchObject({
      agentId,
      projectId: user.projectId,
      status: 'SUCCEEDED',
      result: 'Hello runs',
      error: null,
      exitCode: 0,
      sessionId: expect.any(String),
    });
    expect(run.durationMs).toBeGreaterThan(0);
    expect(Date.parse(run.endedAt as string) - Date.parse(run.startedAt as string)).toBe(run.durationMs);
    expect(await user.run(run.id)).toEqual(run);
    expect(await endedSessionOf(run)).toMatchObject({ status: 'COMPLETED', endedAt: expect.any(String) });
    expectAgentRunLog((await user.logs(run.id)).lines, run, []);
  });

  it('that throws ends FAILED script_error with the message, its stack on stderr', async () => {
    const agentId = await user.agent(
      "async function deep() { throw new Error('no such button: ' + input.name); }\nawait deep();",
    );
    const run = (await user.start(agentId, { input: { name: 'Buy' }, wait: 30 })).body;
    expect(run).toMatchObject({
      status: 'FAILED',
      result: null,
      error: { code: 'script_error', message: 'no such button: Buy' },
      exitCode: 1,
    });
    const stderr = (await user.logs(run.id)).lines.filter((l) => l.stream === 'stderr').map((l) => l.message);
    expect(stderr[0]).toBe('Error: no such button: Buy');
    expect(stderr).toContainEqual(expect.stringMatching(/^\s+at deep \(.*script\.mjs:\d+:\d+\)$/));
    expect(await endedSessionOf(run)).toMatchObject({ status: 'COMPLETED' });
  });

  it('with a syntax error ends FAILED script_invalid', async () => {
    const agentId = await user.agent('const title = await page.title(;\nreturn title;');
    const run = (await user.start(agentId, { wait: 30 })).body;
    expect(run).toMatchObject({ status: 'FAILED', result: null, error: { code: 'script_invalid' } });
    expect(run.error?.message).toMatch(/SyntaxError|Unexpected token/i);
  });

  it('that never ends is TIMED_OUT at its deadline, leaving no process or browser behind', async () => {
    // Says where it runs (its folder is on its process's command line), then spins for ever.
    const agentId = await user.agent('log(process.cwd());\nfor (;;) {}');
    const run = (await user.start(agentId, { timeoutSec: 2 })).body;
    expect(run).toMatchObject({ status: 'QUEUED', timeoutSec: 2 });
    const runDir = await until('the script to log its folder', async () => {
      const { lines } = await user.logs(run.id);
      return lines.find((l) => l.stream === 'stdout')?.message;
    });
    const runners = descendantsOf(server.child.pid as number);
    const ofRun = [...runners].filter(([, cmd]) => cmd.includes(runDir)).map(([pid]) => pid);
    const browser = browsers();
    expect([...browser.values()].some((cmd) => /chrom/i.test(cmd.split(' ')[0] as string))).toBe(true);
    // The session's browser and all below it (its confinement's launchers, renderers, …).
    const ofSession = [...browser.keys()].flatMap((pid) => [pid, ...descendantsOf(pid).keys()]);
    expect(ofRun.length).toBeGreaterThan(0);

    const ended = await user.terminal(run.id);
    expect(ended).toMatchObject({ status: 'TIMED_OUT', error: { code: 'timed_out' }, result: null });
    const took = Date.parse(ended.endedAt as string) - Date.parse(ended.startedAt as string);
    expect(took).toBeGreaterThanOrEqual(2_000);
    expect(took).toBeLessThan(20_000);
    expect(await endedSessionOf(ended)).toMatchObject({ status: 'COMPLETED', endedAt: expect.any(String) });
    // Gone: the run's processes (its folder on their command line) and its session's browser.
    await until(
      `the run's and the session's processes to end: ${JSON.stringify([...ofRun, ...ofSession].filter(isRunning))}`,
      () => ([...ofRun, ...ofSession].some(isRunning) ? undefined : true),
      5_000,
    );
    const left = [...descendantsOf(server.child.pid as number)].filter(
      ([, cmd]) => cmd.includes(runDir) || cmd.includes(run.id) || cmd.includes('--user-data-dir='),
    );
    expect(left).toEqual([]);
  });

  it('canceled while it runs is CANCELED (again the same answer), a waiting GET gets it, its session ends', async () => {
    const agentId = await user.agent("log('started');\nawait new Promise((r) => setTimeout(r, 600_000));");
    const run = (await user.start(agentId, { timeoutSec: 300 })).body;
    await until('the script to start', async () =>
      (await user.logs(run.id)).lines.some((l) => l.message === 'started') ? true : undefined,
    );
    const running = await user.run(run.id);
    expect(running).toMatchObject({ status: 'RUNNING', sessionId: expect.any(String) });
    expect(await sessionOf(running)).toMatchObject({ status: 'RUNNING' });

    const waitStarted = Date.now();
    const waiting = user.run(run.id, 30);
    const canceled = await user.call<RunJson>('POST', `${user.base}/runs/${run.id}:cancel`);
    expect(canceled.status).toBe(200);
    expect(canceled.body).toMatchObject({
      id: run.id,
      status: 'CANCELED',
      error: { code: 'canceled' },
      endedAt: expect.any(String),
    });
    const waited = await waiting;
    expect(waited).toMatchObject({ id: run.id, status: 'CANCELED' });
    expect(Date.now() - waitStarted).toBeLessThan(25_000);
    const again = await user.call<RunJson>('POST', `${user.base}/runs/${run.id}:cancel`);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(canceled.body);
    expect(await endedSessionOf(running)).toMatchObject({ status: 'COMPLETED', endedAt: expect.any(String) });
    expect(await user.run(run.id)).toEqual(canceled.body);
  });
});

describe('a run’s environment', () => {
  it('is only the run’s env (the agent’s merged with the request’s): nothing of the server’s', async () => {
    const agentId = await user.agent('return { processEnv: { ...process.env }, env };', {
      envVars: { AGENT_ONLY: 'from agent', SHARED: 'agent value' },
    });
    const run = (
      await user.start(agentId, { env: { SHARED: 'request value', REQUEST_ONLY: 'from request' }, wait: 30 })
    ).body;
    expect(run.status).toBe('SUCCEEDED');
    const expected = { AGENT_ONLY: 'from agent', SHARED: 'request value', REQUEST_ONLY: 'from request' };
    expect(run.result).toEqual({ processEnv: expected, env: expected });
    const text = JSON.stringify(run.result);
    for (const secret of [CANARY, SECRET_KEY, databaseUrl, dataDir]) expect(text).not.toContain(secret);
  });
});
