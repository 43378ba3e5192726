import { RUN_INPUT_MAX_BYTES } from '@browserdeck/domain';
import {
  assertProblem,
  createTestApp,
  type TestApp,
  type TestAppOptions,
  type TestUser,
} from '@browserdeck/testing/adapters';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OpenApiDocument } from '../../kernel/openapi/OpenApiDocument.ts';
import type { RunJson, RunLogLineJson } from './presentRun.ts';
import { RunSchema } from './runSchemas.ts';

let t: TestApp;
let running = false;
let alice: TestUser;
let projectId: string;
let base: string;

/** A test app with Alice and her project (in place of the last one); `options` for the app. */
async function start(options: TestAppOptions = {}): Promise<void> {
  await stop();
  t = await createTestApp(options);
  running = true;
  alice = await t.signUpAndIn('alice@example.com');
  projectId = await newProject('Runs', alice);
  base = `/v1/browserbase/projects/${projectId}`;
}
async function stop(): Promise<void> {
  if (running) await t.close();
  running = false;
}
beforeEach(() => start());
afterEach(stop);

const T0 = '2026-01-01T00:00:00.000Z';
const UNKNOWN = '0190b000-0000-7000-8000-00000000dead';

const call = (method: string, path: string, json?: unknown, headers: Record<string, string> = {}) =>
  t.request(path, {
    method,
    headers: { Authorization: `Bearer ${alice.accessToken}`, ...headers },
    ...(json === undefined ? {} : { json }),
  });

async function newProject(name: string, user: TestUser): Promise<string> {
  const res = await t.request('/v1/projects', { method: 'POST', token: user.accessToken, json: { name } });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

async function newAgent(fields: Record<string, unknown> = {}): Promise<string> {
  const res = await call('POST', `${base}/agents`, { name: 'Title', script: 'return 1', ...fields });
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

async function startRun(agentId: string, json: unknown = {}, headers?: Record<string, string>) {
  const res = await call('POST', `${base}/agents/${agentId}/runs`, json, headers);
  expect(res.status, await res.clone().text()).toBe(201);
  return { res, run: (await res.json()) as RunJson };
}

/** Resolves once the stored run has `status`. */
const untilStatus = (runId: string, status: string) =>
  expect.poll(async () => (await t.runs.findById(runId))?.status).toBe(status);

describe('POST …/agents/{agent_id}/runs', () => {
  it('queues a run of the agent and answers 201 with exactly §11’s fields and its Location', async () => {
    await start({ runWorker: false });
    const agentId = await newAgent({ envVars: { TOKEN: 'agent-secret' }, timeoutSec: 120 });
    const { res, run } = await startRun(agentId, {
      input: { url: 'https://example.com' },
      env: { EXTRA: 'x' },
    });
    expect(RunSchema.strict().parse(run)).toEqual(run);
    expect(run).toEqual({
      id: expect.any(String),
      projectId,
      agentId,
      sessionId: null,
      status: 'QUEUED',
      input: { url: 'https://example.com' },
      result: null,
      error: null,
      exitCode: null,
      timeoutSec: 120,
      createdAt: T0,
      startedAt: null,
      endedAt: null,
      durationMs: null,
      logBytes: 0,
    });
    expect(res.headers.get('location')).toBe(`${base}/runs/${run.id}`);
    expect(res.headers.get('idempotent-replayed')).toBeNull();
    const stored = await t.runs.findInProject(projectId, run.id);
    expect(stored).toMatchObject({ status: 'QUEUED', env: { TOKEN: 'agent-secret', EXTRA: 'x' } });
    // The script and the env stay on the server.
    expect(JSON.stringify(run)).not.toMatch(/agent-secret|return 1/);
  });

  it('accepts no body at all: input null, the agent’s timeout', async () => {
    const agentId = await newAgent();
    const res = await call('POST', `${base}/agents/${agentId}/runs`);
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ input: null, timeoutSec: 300 });
  });

  it('names each invalid field: input over 64 KiB, wait 61, timeoutSec 0, an unknown field', async () => {
    const agentId = await newAgent();
    const big = 'x'.repeat(RUN_INPUT_MAX_BYTES);
    const res = await call('POST', `${base}/agents/${agentId}/runs`, {
      input: big,
      wait: 61,
      timeoutSec: 0,
      script: 'return 2',
    });
    const problem = await assertProblem(res, 400, 'validation_failed');
    expect(problem.errors?.map((e) => e.path).sort()).toEqual(['input', 'script', 'timeoutSec', 'wait']);
    expect(problem.errors).toContainEqual({ path: 'script', message: 'is not a known field' });
    expect(problem.errors).toContainEqual({ path: 'wait', message: 'must be an integer from 0 to 60' });
    expect(t.runs.all()).toHaveLength(0);
  });

  it('refuses an inactive agent, an empty script and an archived project with 409s', async () => {
    const inactive = await newAgent({ name: 'Off', active: false });
    await assertProblem(await call('POST', `${base}/agents/${inactive}/runs`, {}), 409, 'agent_inactive');
    const empty = await newAgent({ name: 'Empty', script: '  ' });
    await assertProblem(await call('POST', `${base}/agents/${empty}/runs`, {}), 409, 'script_empty');
    const agentId = await newAgent();
    const { run } = await startRun(agentId);
    expect((await call('POST', `/v1/projects/${projectId}:archive`)).status).toBe(200);
    await assertProblem(await call('POST', `${base}/agents/${agentId}/runs`, {}), 409, 'project_archived');
    // Reading is still allowed.
    expect((await call('GET', `${base}/runs/${run.id}`)).status).toBe(200);
  });

  it('with an Idempotency-Key, a retry answers the same run; another body is a 409', async () => {
    await start({ runWorker: false });
    const agentId = await newAgent();
    const key = { 'Idempotency-Key': 'run-once' };
    const first = await startRun(agentId, { input: 1 }, key);
    const again = await startRun(agentId, { input: 1 }, key);
    expect(again.run).toEqual(first.run);
    expect(again.res.headers.get('idempotent-replayed')).toBe('true');
    const other = await call('POST', `${base}/agents/${agentId}/runs`, { input: 2 }, key);
    await assertProblem(other, 409, 'idempotency_key_reused');
    expect(t.runs.all()).toHaveLength(1);
  });

  it('with wait, answers the terminal run once it has ended (still 201)', async () => {
    t.scriptRunner.willPlay({ hold: true });
    const agentId = await newAgent();
    const answer = call('POST', `${base}/agents/${agentId}/runs`, { input: 'x', wait: 30 });
    await t.scriptRunner.untilHeld();
    t.scriptRunner.finish({ kind: 'returned', resultJson: '{"title":"Example"}', exitCode: 0 });
    const res = await answer;
    expect(res.status).toBe(201);
    const run = (await res.json()) as RunJson;
    expect(run).toMatchObject({
      status: 'SUCCEEDED',
      result: { title: 'Example' },
      exitCode: 0,
      error: null,
      startedAt: T0,
      endedAt: T0,
      durationMs: 0,
      sessionId: expect.any(String),
    });
    expect(res.headers.get('location')).toBe(`${base}/runs/${run.id}`);
  });

  it('with wait, is not cut off at the request timeout: a long poll may take its wait', async () => {
    await start({ overrides: { http: { requestTimeoutMs: 100 } } });
    t.scriptRunner.willPlay({ hold: true });
    const agentId = await newAgent();
    const answer = call('POST', `${base}/agents/${agentId}/runs`, { wait: 30 });
    await t.scriptRunner.untilHeld();
    // The run ends well after the cut-off of every other request: that is what is tested.
    setTimeout(() => t.scriptRunner.finish(), 400);
    const res = await answer;
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ status: 'SUCCEEDED' });
  });
});

describe('POST …/sessions/{session_id}/runs', () => {
  async function newSession(json: unknown = {}): Promise<string> {
    const res = await call('POST', `${base}/sessions`, json);
    expect(res.status).toBe(201);
    return ((await res.json()) as { id: string }).id;
  }

  it('queues a run on the live session: 201, no agent, its Location; the session’s script by default', async () => {
    await start({ runWorker: false });
    const sessionId = await newSession({ script: 'return "own"', env: { A: '1' } });
    const res = await call('POST', `${base}/sessions/${sessionId}/runs`, { input: [1, 2], timeoutSec: 5 });
    expect(res.status, await res.clone().text()).toBe(201);
    const run = (await res.json()) as RunJson;
    expect(run).toEqual({
      id: expect.any(String),
      projectId,
      agentId: null,
      sessionId,
      status: 'QUEUED',
      input: [1, 2],
      result: null,
      error: null,
      exitCode: null,
      timeoutSec: 5,
      createdAt: T0,
      startedAt: null,
      endedAt: null,
      durationMs: null,
      logBytes: 0,
    });
    expect(res.headers.get('location')).toBe(`${base}/runs/${run.id}`);
    expect(await t.runs.findById(run.id)).toMatchObject({ script: 'return "own"', sessionRequest: null });
  });

  it('runs the given script and leaves the session open', async () => {
    const sessionId = await newSession();
    const res = await call('POST', `${base}/sessions/${sessionId}/runs`, { script: 'return 7', wait: 30 });
    expect(await res.json()).toMatchObject({ status: 'SUCCEEDED', sessionId });
    expect(t.scriptRunner.jobs.at(-1)).toMatchObject({ script: 'return 7' });
    expect(await t.sessions.findInProject(projectId, sessionId)).toMatchObject({ status: 'RUNNING' });
  });

  it('refuses an ended session (session_ended), an empty script (409 script_empty), unknown fields', async () => {
    const sessionId = await newSession();
    await assertProblem(
      await call('POST', `${base}/sessions/${sessionId}/runs`, { region: 'us-east-1' }),
      400,
      'validation_failed',
    );
    await assertProblem(await call('POST', `${base}/sessions/${sessionId}/runs`, {}), 409, 'script_empty');
    expect((await call('POST', `${base}/sessions/${sessionId}:release`)).status).toBe(200);
    const ended = await call('POST', `${base}/sessions/${sessionId}/runs`, { script: 'return 1' });
    // One code, one status: session_ended is 409 everywhere (SPEC §11) (the status table), also here.
    await assertProblem(ended, 409, 'session_ended');
  });
});

describe('GET …/runs and …/runs/{run_id}', () => {
  it('lists newest first, filtered by agent, session and status, paged', async () => {
    await start({ runWorker: false });
    const a = await newAgent({ name: 'A' });
    const b = await newAgent({ name: 'B' });
    const r1 = (await startRun(a)).run;
    t.clock.advance(1000);
    const r2 = (await startRun(b)).run;
    t.clock.advance(1000);
    const r3 = (await startRun(a)).run;
    expect((await call('POST', `${base}/runs/${r3.id}:cancel`)).status).toBe(200);

    const page = async (query: string) => {
      const res = await call('GET', `${base}/runs${query}`);
      expect(res.status, await res.clone().text()).toBe(200);
      return (await res.json()) as { runs: RunJson[]; total: number; limit: number; offset: number };
    };
    const all = await page('');
    expect(all).toMatchObject({ total: 3, limit: 20, offset: 0 });
    expect(all.runs.map((r) => r.id)).toEqual([r3.id, r2.id, r1.id]);
    expect(all.runs[0]).toEqual(RunSchema.strict().parse(all.runs[0]));
    expect((await page(`?agent_id=${a}`)).runs.map((r) => r.id)).toEqual([r3.id, r1.id]);
    expect((await page('?status=QUEUED')).runs.map((r) => r.id)).toEqual([r2.id, r1.id]);
    expect(await page('?limit=1&offset=1')).toMatchObject({
      total: 3,
      limit: 1,
      offset: 1,
      runs: [{ id: r2.id }],
    });
    expect((await page(`?session_id=${UNKNOWN}`)).total).toBe(0);
    const bad = await call('GET', `${base}/runs?status=DONE&limit=101&agent_id=x`);
    const problem = await assertProblem(bad, 400, 'validation_failed');
    expect(problem.errors?.map((e) => e.path).sort()).toEqual(['agent_id', 'limit', 'status']);
  });

  it('reads a run; with wait it answers once the run has ended', async () => {
    t.scriptRunner.willPlay({ hold: true });
    const { run } = await startRun(await newAgent());
    await t.scriptRunner.untilHeld();
    const read = await call('GET', `${base}/runs/${run.id}`);
    expect(await read.json()).toMatchObject({ id: run.id, status: 'RUNNING', startedAt: T0 });
    const waiting = call('GET', `${base}/runs/${run.id}?wait=30`);
    t.scriptRunner.finish({ kind: 'failed', code: 'script_error', message: 'boom', exitCode: 1 });
    const res = await waiting;
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      status: 'FAILED',
      error: { code: 'script_error', message: 'boom' },
      exitCode: 1,
      result: null,
    });
    await assertProblem(await call('GET', `${base}/runs/${run.id}?wait=61`), 400, 'validation_failed');
  });

  it('answers 404 for another user’s run, an unknown run and another project’s run', async () => {
    const { run } = await startRun(await newAgent());
    const bob = await t.signUpAndIn('bob@example.com');
    const bobs = await newProject('Bob', bob);
    const asBob = (path: string) => t.request(path, { token: bob.accessToken });
    await assertProblem(await asBob(`${base}/runs/${run.id}`), 404, 'not_found');
    await assertProblem(await asBob(`/v1/browserbase/projects/${bobs}/runs/${run.id}`), 404, 'not_found');
    await assertProblem(await call('GET', `${base}/runs/${UNKNOWN}`), 404, 'not_found');
    const other = await newProject('Other', alice);
    await assertProblem(
      await call('GET', `/v1/browserbase/projects/${other}/runs/${run.id}`),
      404,
      'not_found',
    );
  });

  it('lets a project API key act on its project’s runs only', async () => {
    const res = await call('POST', `/v1/projects/${projectId}/api-keys`, { name: 'ci' });
    const { key } = (await res.json()) as { key: string };
    const asKey = (method: string, path: string, json?: unknown) =>
      t.request(path, { method, headers: { 'X-BB-API-Key': key }, ...(json === undefined ? {} : { json }) });
    const agentId = await newAgent();
    const started = await asKey('POST', `${base}/agents/${agentId}/runs`, { wait: 30 });
    expect(started.status).toBe(201);
    const run = (await started.json()) as RunJson;
    expect(run.status).toBe('SUCCEEDED');
    expect((await asKey('GET', `${base}/runs/${run.id}`)).status).toBe(200);
    expect((await asKey('GET', `${base}/runs/${run.id}/logs`)).status).toBe(200);
    const other = await newProject('Other', alice);
    await assertProblem(
      await asKey('GET', `/v1/browserbase/projects/${other}/runs`),
      403,
      'forbidden_for_api_key',
    );
  });

  it('answers 404 once the project is deleted', async () => {
    const { run } = await startRun(await newAgent(), { wait: 30 });
    expect((await call('DELETE', `/v1/projects/${projectId}`)).status).toBe(204);
    await assertProblem(await call('GET', `${base}/runs/${run.id}`), 404, 'not_found');
    await assertProblem(await call('GET', `${base}/runs/${run.id}/logs`), 404, 'not_found');
  });
});

describe('POST …/runs/{run_id}:cancel', () => {
  it('cancels a queued run; a second cancel answers it unchanged', async () => {
    await start({ runWorker: false });
    const { run } = await startRun(await newAgent());
    t.clock.advance(5000);
    const first = await call('POST', `${base}/runs/${run.id}:cancel`);
    expect(first.status).toBe(200);
    const canceled = (await first.json()) as RunJson;
    expect(canceled).toMatchObject({
      status: 'CANCELED',
      error: { code: 'canceled', message: expect.any(String) },
      endedAt: '2026-01-01T00:00:05.000Z',
    });
    t.clock.advance(5000);
    const second = await call('POST', `${base}/runs/${run.id}:cancel`, {});
    expect(second.status).toBe(200);
    expect(await second.json()).toEqual(canceled);
    expect(await t.runs.findById(run.id)).toMatchObject({ status: 'CANCELED' });
    await assertProblem(
      await call('POST', `${base}/runs/${run.id}:cancel`, { now: true }),
      400,
      'validation_failed',
    );
    await assertProblem(await call('POST', `${base}/runs/${UNKNOWN}:cancel`), 404, 'not_found');
  });

  it('kills a running script', async () => {
    t.scriptRunner.willPlay({ hold: true });
    const { run } = await startRun(await newAgent());
    await t.scriptRunner.untilHeld();
    const res = await call('POST', `${base}/runs/${run.id}:cancel`);
    expect(await res.json()).toMatchObject({ status: 'CANCELED' });
    await expect.poll(() => t.scriptRunner.holding.length).toBe(0);
    await untilStatus(run.id, 'CANCELED');
  });
});

describe('GET …/runs/{run_id}/logs', () => {
  it('pages through the lines in seq order with the cursor; null once the run has ended', async () => {
    t.scriptRunner.willPlay({
      output: ['one', { stream: 'stderr', message: 'two' }, { stream: 'console', message: 'three' }],
    });
    const { run } = await startRun(await newAgent(), { wait: 30 });
    expect(run.status).toBe('SUCCEEDED');
    type LogPage = { logs: RunLogLineJson[]; nextCursor: string | null };
    const page = async (query: string): Promise<LogPage> => {
      const res = await call('GET', `${base}/runs/${run.id}/logs${query}`);
      expect(res.status, await res.clone().text()).toBe(200);
      return (await res.json()) as LogPage;
    };
    const first = await page('?limit=2');
    expect(first.logs.map((l) => l.seq)).toEqual([1, 2]);
    expect(first.logs[0]).toEqual({
      seq: 1,
      timestamp: T0,
      stream: expect.any(String),
      message: expect.any(String),
    });
    expect(first.nextCursor).toBe('2');
    const lines = [...first.logs];
    let cursor = first.nextCursor;
    while (cursor !== null) {
      const next = await page(`?limit=2&cursor=${cursor}`);
      expect(next.logs.length).toBeLessThanOrEqual(2);
      lines.push(...next.logs);
      cursor = next.nextCursor;
    }
    // Every line once, in seq order across the streams; the script's three among them, in order.
    expect(lines.map((l) => l.seq)).toEqual(lines.map((_, i) => i + 1));
    const own = lines.filter((l) => l.stream !== 'system').map((l) => [l.stream, l.message]);
    expect(own).toEqual([
      ['stdout', 'one'],
      ['stderr', 'two'],
      ['console', 'three'],
    ]);
    expect(lines.length).toBe((await t.runLogs.read(run.id, 0, 1000)).length);
    const bad = await call('GET', `${base}/runs/${run.id}/logs?cursor=abc&limit=0`);
    const problem = await assertProblem(bad, 400, 'validation_failed');
    expect(problem.errors?.map((e) => e.path)).toContain('limit');
    await assertProblem(
      await call('GET', `${base}/runs/${run.id}/logs?cursor=abc`),
      400,
      'validation_failed',
    );
  });
});

describe('the OpenAPI document', () => {
  it('documents every run operation with its named schemas', async () => {
    const doc = (await (await t.request('/openapi.json')).json()) as OpenApiDocument;
    const at = (path: string) => doc.paths[`/v1/{provider}/projects/{project_id}${path}`] ?? {};
    expect(Object.keys(at('/agents/{agent_id}/runs'))).toEqual(['post']);
    expect(Object.keys(at('/sessions/{session_id}/runs'))).toEqual(['post']);
    expect(Object.keys(at('/runs'))).toEqual(['get']);
    expect(Object.keys(at('/runs/{run_id}'))).toEqual(['get']);
    expect(Object.keys(at('/runs/{run_id}:cancel'))).toEqual(['post']);
    expect(Object.keys(at('/runs/{run_id}/logs'))).toEqual(['get']);
    expect(Object.keys(at('/runs/{run_id}/logs/stream'))).toEqual(['get']);
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining(['Run', 'RunPage', 'RunLogLine', 'RunLogPage']),
    );
    const stream = at('/runs/{run_id}/logs/stream').get as unknown as {
      responses: Record<string, { content?: Record<string, unknown> }>;
    };
    expect(Object.keys(stream.responses['200']?.content ?? {})).toEqual(['text/event-stream']);
    expect(doc.tags.map((tag) => tag.name)).toContain('Runs');
  });
});
