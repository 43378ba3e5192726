import { describe, expect, it } from 'vitest';
import { ApiError } from './ApiError.ts';
import { type AuthorizedFetch, followRunLogs, type RunLogStreamState } from './followRunLogs.ts';
import type { Run, RunLogLine } from './types.ts';

const URL_ = 'http://127.0.0.1/v1/cloudbrowser/projects/p1/runs/r1/logs/stream';

const line = (seq: number): RunLogLine => ({
  seq,
  timestamp: '2026-01-01T00:00:00.000Z',
  stream: 'console',
  message: `line ${seq}`,
});

const run: Run = {
  id: 'r1',
  projectId: 'p1',
  agentId: 'a1',
  sessionId: 's1',
  status: 'SUCCEEDED',
  input: null,
  result: { ok: true },
  error: null,
  exitCode: 0,
  timeoutSec: 60,
  createdAt: '2026-01-01T00:00:00.000Z',
  startedAt: '2026-01-01T00:00:01.000Z',
  endedAt: '2026-01-01T00:00:02.000Z',
  durationMs: 1000,
  logBytes: 12,
};

const logEvent = (l: RunLogLine) => `id: ${l.seq}\nevent: log\ndata: ${JSON.stringify(l)}\n\n`;
const endEvent = (r: Run) => `event: end\ndata: ${JSON.stringify(r)}\n\n`;

/** An event stream answer whose body is `text`, then ends (as a dropped or finished connection). */
const stream = (text: string) =>
  new Response(text, { status: 200, headers: { 'Content-Type': 'text/event-stream' } });

/** Follows the stream over `answers` (one per connection) and collects what it reports. */
function follow(answers: Array<(init: RequestInit) => Response>) {
  const requests: Array<{ url: string; headers: Headers; init: RequestInit }> = [];
  const fetchFake: AuthorizedFetch = async (url, init) => {
    requests.push({ url: String(url), headers: new Headers(init.headers), init });
    const answer = answers[requests.length - 1];
    if (!answer) throw new Error(`unexpected connection ${requests.length}`);
    return answer(init);
  };
  const lines: number[] = [];
  const states: Array<[RunLogStreamState, unknown]> = [];
  let resolveEnd: (run: Run) => void = () => {};
  let resolveSettled: () => void = () => {};
  const ended = new Promise<Run>((resolve) => {
    resolveEnd = resolve;
  });
  const settled = new Promise<void>((resolve) => {
    resolveSettled = resolve;
  });
  const follower = followRunLogs(URL_, fetchFake, {
    onLine: (l) => lines.push(l.seq),
    onEnd: (r) => resolveEnd(r),
    onState: (state, problem) => {
      states.push([state, problem]);
      if (state === 'ended' || state === 'failed') resolveSettled();
    },
  });
  return { follower, requests, lines, states, ended, settled };
}

describe('followRunLogs', () => {
  it('reports each log line in order, then the terminal run, and closes', async () => {
    const t = follow([() => stream(`${logEvent(line(1))}${logEvent(line(2))}${endEvent(run)}`)]);
    expect(await t.ended).toEqual(run);
    await t.settled;
    expect(t.lines).toEqual([1, 2]);
    expect(t.states.map(([state]) => state)).toEqual(['open', 'ended']);
    expect(t.follower.closed).toBe(true);
    expect(t.requests).toHaveLength(1);
    expect(t.requests[0]?.url).toBe(URL_);
    expect(t.requests[0]?.headers.get('Accept')).toBe('text/event-stream');
    expect(t.requests[0]?.headers.has('Last-Event-ID')).toBe(false);
  });

  it('resumes a dropped stream after the last line it had (Last-Event-ID), missing and doubling none', async () => {
    const t = follow([
      // `retry: 1`: reconnect after 1 ms rather than the default 3 s.
      () => stream(`retry: 1\n\n${logEvent(line(1))}${logEvent(line(2))}`),
      () => stream(`${logEvent(line(3))}${endEvent(run)}`),
    ]);
    expect(await t.ended).toEqual(run);
    expect(t.lines).toEqual([1, 2, 3]);
    expect(t.requests).toHaveLength(2);
    expect(t.requests[1]?.headers.get('Last-Event-ID')).toBe('2');
    expect(t.states.map(([state]) => state)).toEqual(['open', 'reconnecting', 'open', 'ended']);
  });

  it('fails for good with the server’s problem when the answer is not the stream', async () => {
    const t = follow([
      () =>
        new Response(
          JSON.stringify({ title: 'Not found', status: 404, detail: 'No run r1.', code: 'not_found' }),
          { status: 404, headers: { 'Content-Type': 'application/problem+json', 'X-Request-Id': 'q1' } },
        ),
    ]);
    await t.settled;
    const [state, problem] = t.states.at(-1) ?? [];
    expect(state).toBe('failed');
    expect(problem).toBeInstanceOf(ApiError);
    expect(problem).toMatchObject({ status: 404, code: 'not_found', detail: 'No run r1.', requestId: 'q1' });
    expect(t.follower.closed).toBe(true);
    expect(t.requests).toHaveLength(1);
  });

  it('stops on close(): the request is aborted and nothing more is reported', async () => {
    let opened: () => void = () => {};
    const open = new Promise<void>((resolve) => {
      opened = resolve;
    });
    const t = follow([
      () => {
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(new TextEncoder().encode(logEvent(line(1))));
            opened();
          },
        });
        return new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream' } });
      },
    ]);
    await open;
    await expect.poll(() => t.lines).toEqual([1]);
    t.follower.close();
    expect(t.follower.closed).toBe(true);
    expect((t.requests[0]?.init.signal as AbortSignal | undefined)?.aborted).toBe(true);
    expect(t.states.map(([state]) => state)).toEqual(['open']);
  });
});
