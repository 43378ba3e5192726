import {
  assertProblem,
  createTestApp,
  type TestApp,
  type TestAppOptions,
  type TestUser,
} from '@browserdeck/testing/adapters';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunJson, RunLogLineJson } from './presentRun.ts';
import { RunSchema } from './runSchemas.ts';

let t: TestApp | undefined;
let alice: TestUser;
let base: string;

async function start(options: TestAppOptions = {}): Promise<TestApp> {
  const app = await createTestApp(options);
  t = app;
  alice = await app.signUpAndIn('alice@example.com');
  const res = await app.request('/v1/projects', {
    method: 'POST',
    token: alice.accessToken,
    json: { name: 'P' },
  });
  base = `/v1/browserbase/projects/${((await res.json()) as { id: string }).id}`;
  return app;
}
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** One thing read from an event stream: an event, or a comment (a heartbeat). */
type Sse = { kind: 'event'; event: string; id: string | undefined; data: string } | { kind: 'comment' };

/** The blocks of an event stream as they arrive; a block with only `retry` is skipped. */
async function* sseOf(res: Response): AsyncGenerator<Sse> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
      const lines = buffer.slice(0, end).split('\n');
      buffer = buffer.slice(end + 2);
      const field = (name: string) =>
        lines.filter((l) => l.startsWith(`${name}:`)).map((l) => l.slice(name.length + 1).replace(/^ /, ''));
      if (lines.every((l) => l.startsWith(':'))) yield { kind: 'comment' };
      else if (field('data').length > 0)
        yield {
          kind: 'event',
          event: field('event')[0] ?? 'message',
          id: field('id')[0],
          data: field('data').join('\n'),
        };
    }
  }
}

/** Every event until the stream closes, each comment counted; `onComment` sees the running count. */
async function readAll(res: Response, onComment: (count: number) => void = () => {}) {
  const events: Array<Extract<Sse, { kind: 'event' }>> = [];
  let comments = 0;
  for await (const item of sseOf(res)) {
    if (item.kind === 'comment') onComment(++comments);
    else events.push(item);
  }
  return { events, comments };
}

async function newRun(app: TestApp, json: unknown = {}): Promise<RunJson> {
  const agent = await app.request(`${base}/agents`, {
    method: 'POST',
    token: alice.accessToken,
    json: { name: 'A', script: 'return 1' },
  });
  const { id } = (await agent.json()) as { id: string };
  const res = await app.request(`${base}/agents/${id}/runs`, {
    method: 'POST',
    token: alice.accessToken,
    json,
  });
  expect(res.status).toBe(201);
  return (await res.json()) as RunJson;
}

const stream = (app: TestApp, runId: string, query = '', headers: Record<string, string> = {}) =>
  app.request(`${base}/runs/${runId}/logs/stream${query}`, { token: alice.accessToken, headers });

describe('GET …/runs/{run_id}/logs/stream', () => {
  it('sends every line as a log event in seq order, then one end event with the run, then closes', async () => {
    const app = await start();
    app.scriptRunner.willPlay({ hold: true, output: ['one', { stream: 'stderr', message: 'two' }] });
    const run = await newRun(app);
    await app.scriptRunner.untilHeld();
    const res = await stream(app, run.id);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('x-request-id')).toEqual(expect.any(String));
    const reading = readAll(res);
    app.scriptRunner.emit({ stream: 'console', message: 'three' });
    app.scriptRunner.finish({ kind: 'returned', resultJson: '"done"', exitCode: 0 });
    const { events } = await reading;

    const logs = events.filter((e) => e.event === 'log');
    const lines = logs.map((e) => JSON.parse(e.data) as RunLogLineJson);
    expect(logs.map((e) => e.id)).toEqual(lines.map((_, i) => String(i + 1)));
    expect(lines.map((l) => l.seq)).toEqual(lines.map((_, i) => i + 1));
    expect(lines.filter((l) => l.stream !== 'system').map((l) => [l.stream, l.message])).toEqual([
      ['stdout', 'one'],
      ['stderr', 'two'],
      ['console', 'three'],
    ]);
    expect(lines).toEqual(
      (await app.runLogs.read(run.id, 0, 1000)).map((l) => ({
        seq: l.seq,
        timestamp: l.timestamp.toISOString(),
        stream: l.stream,
        message: l.message,
      })),
    );
    // The end event comes last, once, with the terminal run; its id stays the last seq.
    expect(events.map((e) => e.event)).toEqual([...logs.map(() => 'log'), 'end']);
    const end = events.at(-1);
    expect(end?.id).toBe(String(lines.length));
    const ended = JSON.parse(end?.data ?? '') as RunJson;
    expect(RunSchema.strict().parse(ended)).toEqual(ended);
    expect(ended).toMatchObject({
      id: run.id,
      status: 'SUCCEEDED',
      result: 'done',
      logBytes: expect.any(Number),
    });
  });

  it('resumes after Last-Event-ID, or ?lastEventId= for clients that cannot set it', async () => {
    const app = await start();
    app.scriptRunner.willPlay({ output: ['a', 'b', 'c', 'd'] });
    const run = await newRun(app, { wait: 30 });
    expect(run.status).toBe('SUCCEEDED');
    const total = (await app.runLogs.read(run.id, 0, 1000)).length;
    expect(total).toBeGreaterThanOrEqual(4);

    const byHeader = await readAll(await stream(app, run.id, '', { 'Last-Event-ID': '2' }));
    const ids = (events: Array<{ event: string; id: string | undefined }>) =>
      events.filter((e) => e.event === 'log').map((e) => Number(e.id));
    const rest = Array.from({ length: total - 2 }, (_, i) => i + 3);
    expect(ids(byHeader.events)).toEqual(rest);
    expect(byHeader.events.at(-1)?.event).toBe('end');
    const byQuery = await readAll(await stream(app, run.id, '?lastEventId=2'));
    expect(ids(byQuery.events)).toEqual(rest);
    // The header wins over the query.
    const both = await readAll(
      await stream(app, run.id, '?lastEventId=1', { 'Last-Event-ID': String(total) }),
    );
    expect(both.events.map((e) => e.event)).toEqual(['end']);
  });

  it('sends heartbeat comments while the run is quiet, and is never cut off by the request timeout', async () => {
    const app = await start({ overrides: { http: { eventStreamHeartbeatMs: 20, requestTimeoutMs: 100 } } });
    app.scriptRunner.willPlay({ hold: true });
    const run = await newRun(app);
    await app.scriptRunner.untilHeld();
    const res = await stream(app, run.id);
    // Ten heartbeats are 200 ms: twice the cut-off of any other request.
    const { events, comments } = await readAll(res, (count) => {
      if (count === 10) app.scriptRunner.finish();
    });
    expect(comments).toBeGreaterThanOrEqual(10);
    expect(events.at(-1)?.event).toBe('end');
    expect(JSON.parse(events.at(-1)?.data ?? '')).toMatchObject({ status: 'SUCCEEDED' });
  });

  it('answers ordinary problems before any stream: 401, 404 for another user’s run, 400 for a bad id', async () => {
    const app = await start();
    const run = await newRun(app, { wait: 30 });
    const anonymous = await app.request(`${base}/runs/${run.id}/logs/stream`);
    await assertProblem(anonymous, 401, 'unauthorized');
    const bob = await app.signUpAndIn('bob@example.com');
    const asBob = await app.request(`${base}/runs/${run.id}/logs/stream`, { token: bob.accessToken });
    await assertProblem(asBob, 404, 'not_found');
    const bad = await stream(app, run.id, '?lastEventId=x', { 'Last-Event-ID': '-1' });
    const problem = await assertProblem(bad, 400, 'validation_failed');
    expect(problem.errors?.map((e) => e.path).sort()).toEqual(['Last-Event-ID', 'lastEventId']);
  });

  it('stops following when the client goes away', async () => {
    const app = await start({ overrides: { http: { eventStreamHeartbeatMs: 20 } } });
    app.scriptRunner.willPlay({ hold: true });
    const run = await newRun(app);
    await app.scriptRunner.untilHeld();
    const client = new AbortController();
    const res = await app.request(`${base}/runs/${run.id}/logs/stream`, {
      token: alice.accessToken,
      signal: client.signal,
    });
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    client.abort();
    await expect(reader.read()).rejects.toThrow();
    // The app still answers, and the run goes on to its end unaffected.
    app.scriptRunner.finish();
    const after = await app.request(`${base}/runs/${run.id}?wait=30`, { token: alice.accessToken });
    expect(await after.json()).toMatchObject({ status: 'SUCCEEDED' });
  });
});
