import { expect } from 'vitest';
import { readEventStream, type StreamEvent } from './eventStream.ts';

/**
 * The public HTTP API of runs (http-api.md §11) as the end-to-end run tests call it: a signed-up
 * user with a project, agents, runs, and their logs paged and streamed.
 */

/** A run as the API answers it. */
export interface RunJson {
  id: string;
  projectId: string;
  agentId: string | null;
  sessionId: string | null;
  status: string;
  input: unknown;
  result: unknown;
  error: { code: string; message: string } | null;
  exitCode: number | null;
  timeoutSec: number;
  createdAt: string;
  startedAt: string | null;
  endedAt: string | null;
  durationMs: number | null;
  logBytes: number;
}

/** One stored log line of a run. */
export interface RunLogLineJson {
  seq: number;
  timestamp: string;
  stream: 'stdout' | 'stderr' | 'console' | 'system';
  message: string;
}

/** An answer: its status, parsed JSON body (null when empty) and headers. */
export interface Answer<T> {
  status: number;
  body: T;
  headers: Headers;
}

/** A signed-up user with a project of the local provider, calling one server. */
export interface RunsUser {
  readonly url: string;
  readonly token: string;
  readonly projectId: string;
  /** `/v1/local/projects/{project_id}`. */
  readonly base: string;
  call<T = unknown>(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<Answer<T>>;
  /** Creates an agent with `script` (and `fields`); its id. */
  agent(script: string, fields?: Record<string, unknown>): Promise<string>;
  /** `POST …/agents/{id}/runs` with `body`; expects 201. */
  start(agentId: string, body?: Record<string, unknown>): Promise<Answer<RunJson>>;
  /** `GET …/runs/{id}` (with `wait` seconds when given); expects 200. */
  run(runId: string, waitSec?: number): Promise<RunJson>;
  /** The run once terminal, holding with `wait` as often as needed up to `timeoutMs`. */
  terminal(runId: string, timeoutMs?: number): Promise<RunJson>;
  /**
   * Every log line so far, read page by page (`limit`) following `nextCursor` until it is null (the
   * run has ended) or a page is empty (the run goes on).
   */
  logs(runId: string, limit?: number): Promise<{ lines: RunLogLineJson[]; pages: number }>;
  /**
   * `GET …/runs/{id}/logs/stream` read to its close (`Last-Event-ID` when given); `onEvent` hears
   * each event as it arrives.
   */
  stream(
    runId: string,
    options?: { lastEventId?: string; onEvent?: (event: StreamEvent) => void },
  ): Promise<{ contentType: string | null; events: StreamEvent[] }>;
}

const PASSWORD = 'correct horse battery';
let users = 0;
let agents = 0;

/** Signs a new user up on the server at `url`, signs in and syncs the default project. */
export async function signUpUser(url: string): Promise<RunsUser> {
  const email = `runs-${process.pid}-${++users}-${Date.now()}@example.com`;
  const signup = await request(url, 'POST', '/v1/auth/signup', { email, password: PASSWORD });
  if (signup.status !== 201) throw new Error(`sign-up: ${signup.status} ${JSON.stringify(signup.body)}`);
  const signin = await request<{ access_token: string }>(url, 'POST', '/v1/auth/signin', {
    email,
    password: PASSWORD,
  });
  const token = signin.body.access_token;
  const synced = await request<{ project: { id: string } }>(url, 'POST', '/v1/auth/sync', undefined, {
    Authorization: `Bearer ${token}`,
  });
  return runsUser(url, token, synced.body.project.id);
}

/** The user of `token`, calling the server at `url` (any instance on the same database and keys). */
export function runsUser(url: string, token: string, projectId: string): RunsUser {
  const base = `/v1/local/projects/${projectId}`;
  const call = <T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    request<T>(url, method, path, body, { Authorization: `Bearer ${token}`, ...headers });
  const expectStatus = <T>(answer: Answer<T>, status: number, what: string): Answer<T> => {
    if (answer.status !== status)
      throw new Error(`${what}: ${answer.status} ${JSON.stringify(answer.body)} (expected ${status})`);
    return answer;
  };
  const user: RunsUser = {
    url,
    token,
    projectId,
    base,
    call,
    async agent(script, fields = {}) {
      const created = await call<{ id: string }>('POST', `${base}/agents`, {
        name: `agent ${++agents}`,
        script,
        ...fields,
      });
      return expectStatus(created, 201, 'create agent').body.id;
    },
    async start(agentId, body = {}) {
      return expectStatus(
        await call<RunJson>('POST', `${base}/agents/${agentId}/runs`, body),
        201,
        'start run',
      );
    },
    async run(runId, waitSec) {
      const query = waitSec === undefined ? '' : `?wait=${waitSec}`;
      return expectStatus(await call<RunJson>('GET', `${base}/runs/${runId}${query}`), 200, 'get run').body;
    },
    async terminal(runId, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const left = Math.ceil((deadline - Date.now()) / 1000);
        const run = await user.run(runId, Math.max(0, Math.min(30, left)));
        if (!['QUEUED', 'RUNNING'].includes(run.status) || left <= 0) return run;
      }
    },
    async logs(runId, limit = 100) {
      const lines: RunLogLineJson[] = [];
      let cursor = '0';
      let pages = 0;
      for (;;) {
        const page = expectStatus(
          await call<{ logs: RunLogLineJson[]; nextCursor: string | null }>(
            'GET',
            `${base}/runs/${runId}/logs?cursor=${cursor}&limit=${limit}`,
          ),
          200,
          'logs',
        ).body;
        pages++;
        lines.push(...page.logs);
        if (page.nextCursor === null) return { lines, pages };
        // Nothing more yet: the run is still going.
        if (page.logs.length === 0) return { lines, pages };
        cursor = page.nextCursor;
      }
    },
    async stream(runId, { lastEventId, onEvent } = {}) {
      const response = await fetch(`${url}${base}/runs/${runId}/logs/stream`, {
        headers: {
          Authorization: `Bearer ${token}`,
          Accept: 'text/event-stream',
          ...(lastEventId === undefined ? {} : { 'Last-Event-ID': lastEventId }),
        },
        signal: AbortSignal.timeout(60_000),
      });
      if (response.status !== 200) throw new Error(`log stream: ${response.status} ${await response.text()}`);
      return {
        contentType: response.headers.get('content-type'),
        events: await readEventStream(response, onEvent),
      };
    },
  };
  return user;
}

/** One JSON request to `url`. */
export async function request<T = unknown>(
  url: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer<T>> {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(90_000),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as T, headers: response.headers };
}

/** Polls `probe` every 100 ms until it returns a value other than undefined; fails after `timeoutMs`. */
export async function until<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((done) => setTimeout(done, 100));
  }
}

/**
 * Checks the log of an agent run: seq 1, 2, 3, … with no gap; its session's `ready` line first and
 * its `released` line last (the worker may add other `system` lines between); and exactly `output`
 * (each `stream message`) for the script's own lines.
 */
export function expectAgentRunLog(lines: RunLogLineJson[], run: RunJson, output: string[]): void {
  const render = (some: RunLogLineJson[]) => some.map((l) => `${l.stream} ${l.message}`);
  expect(lines.map((l) => l.seq)).toEqual(lines.map((_, i) => i + 1));
  expect(render(lines.slice(0, 1))).toEqual([`system session ${run.sessionId} ready`]);
  expect(render(lines.slice(-1))).toEqual([`system session ${run.sessionId} is released as the run ends`]);
  expect(render(lines.filter((l) => l.stream !== 'system'))).toEqual(output);
}
