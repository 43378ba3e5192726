import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from '../test/freePort.ts';
import { type Child, startChild } from './childProcess.ts';

const MAIN = resolve(import.meta.dirname, '../examples/server/src/main.ts');

/** The Browserdeck server (`examples/server/src/main.ts`) in its own process, on a throwaway data folder. */
export interface ApiServer extends Child {
  readonly dataDir: string;
}

/** Starts the server with `env` (LOG_LEVEL=silent unless given) and waits for `/readyz`. */
export async function startApiServer(
  env: Record<string, string>,
  nodeArgs: string[] = [],
): Promise<ApiServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'browserdeck-bench-'));
  const child = await startChild({
    script: MAIN,
    nodeArgs,
    // The create load makes tens of thousands of projects for one user: far past the default
    // per-user limit, which would turn the measured creates into 403s.
    env: {
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
      ACCESS_TOKEN_TTL_SEC: '3600',
      MAX_PROJECTS_PER_USER: '100000',
      ...env,
    },
    port: await freePort(),
    readyPath: '/readyz',
  });
  return {
    ...child,
    dataDir,
    async stop(graceMs?: number) {
      await child.stop(graceMs);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** One JSON call; throws unless the status is the expected one. */
export async function call<T>(
  baseUrl: string,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; expect?: number } = {},
): Promise<T> {
  const response = await fetch(baseUrl + path, {
    method,
    headers: {
      ...(options.body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...(options.token ? { Authorization: `Bearer ${options.token}` } : {}),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  if (response.status !== (options.expect ?? 200))
    throw new Error(`${method} ${path} → ${response.status}: ${text.slice(0, 500)}`);
  return (text ? JSON.parse(text) : null) as T;
}

let users = 0;

/** Signs up a new user (a distinct e-mail each time: sign-in is rate limited per e-mail) and signs in once. */
export async function newUser(baseUrl: string): Promise<string> {
  const email = `bench-${process.pid}-${++users}-${Date.now()}@example.com`;
  const password = 'correct horse battery';
  await call(baseUrl, 'POST', '/v1/auth/signup', { body: { email, password }, expect: 201 });
  const signin = await call<{ access_token: string }>(baseUrl, 'POST', '/v1/auth/signin', {
    body: { email, password },
  });
  return signin.access_token;
}

/** Creates `count` projects for the bearer; returns their ids. */
export async function createProjects(baseUrl: string, token: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const project = await call<{ id: string }>(baseUrl, 'POST', '/v1/projects', {
      token,
      body: { name: `Bench project ${i}` },
      expect: 201,
    });
    ids.push(project.id);
  }
  return ids;
}

/**
 * A new account with one project on the server at `url`, and its local sessions: create, status
 * and release, each through `origin` when given (a proxy in front of the same server), else `url`.
 */
export async function localSessionApi(url: string) {
  const token = await newUser(url);
  const [projectId] = await createProjects(url, token, 1);
  const base = `/v1/local/projects/${projectId}/sessions`;
  return {
    create: (origin = url) =>
      call<{ id: string; connectUrl: string }>(origin, 'POST', base, { token, body: {}, expect: 201 }),
    status: async (id: string, origin = url) =>
      (await call<{ status: string }>(origin, 'GET', `${base}/${id}`, { token })).status,
    release: (id: string, origin = url) => call(origin, 'POST', `${base}/${id}:release`, { token, body: {} }),
  };
}
