import { randomUUID } from 'node:crypto';
import { AuditTrail, CreateSession, directTransactions } from '@browserdeck/domain';
import { assertProblem, createTestApp, type TestApp, type TestUser } from '@browserdeck/testing/adapters';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionJson } from '../api/sessions/presentSession.ts';

/**
 * What the API answers when the cloud-browser provider fails (http-api.md §2, §5), with sessions already in
 * the project so that "nothing stored" is checked against a non-empty list, and what happens when
 * storing fails after the provider started a browser.
 */
let t: TestApp;
let user: TestUser;
let base: string;
let existing: SessionJson;

beforeEach(async () => {
  t = await createTestApp();
  user = await t.signUpAndIn();
  const project = await t.request('/v1/projects', {
    method: 'POST',
    token: user.accessToken,
    json: { name: 'F' },
  });
  base = `/v1/browserbase/projects/${((await project.json()) as { id: string }).id}/sessions`;
  existing = await startSession();
});
afterEach(() => t.close());

const call = (method: string, path: string, json?: unknown, headers?: Record<string, string>) =>
  t.request(path, {
    method,
    token: user.accessToken,
    ...(json === undefined ? {} : { json }),
    ...(headers ? { headers } : {}),
  });

async function startSession(headers?: Record<string, string>): Promise<SessionJson> {
  const res = await call('POST', base, { name: 'ok' }, headers);
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as SessionJson;
}

async function listTotal(): Promise<number> {
  const res = await call('GET', base);
  expect(res.status).toBe(200);
  return ((await res.json()) as { total: number }).total;
}

const PROVIDER_FAILURES = [
  { code: 'provider_unavailable', status: 503, retryAfterSec: undefined },
  { code: 'provider_rate_limited', status: 429, retryAfterSec: 42 },
  { code: 'provider_error', status: 502, retryAfterSec: undefined },
  { code: 'provider_timeout', status: 504, retryAfterSec: undefined },
] as const;

describe('POST …/sessions when the provider fails', () => {
  it.each(PROVIDER_FAILURES)(
    '$code → $status problem, stores nothing, and a retry with the same Idempotency-Key goes ahead',
    async ({ code, status, retryAfterSec }) => {
      const headers = { 'Idempotency-Key': `fault-${code}` };
      const running = t.provider.running;
      t.provider.failNext('create', code, retryAfterSec);

      const res = await call('POST', base, { name: 'refused' }, headers);
      expect(res.headers.get('retry-after')).toBe(retryAfterSec === undefined ? null : String(retryAfterSec));
      await assertProblem(res, status, code);

      expect(await listTotal()).toBe(1);
      expect(t.provider.running).toEqual(running);
      const retried = await startSession(headers);
      expect(retried.id).not.toBe(existing.id);
      expect(await listTotal()).toBe(2);
    },
  );

  it('passes no Retry-After on a provider 429 that gave none', async () => {
    t.provider.failNext('create', 'provider_rate_limited');
    const res = await call('POST', base, {});
    expect(res.headers.get('retry-after')).toBeNull();
    await assertProblem(res, 429, 'provider_rate_limited');
    expect(await listTotal()).toBe(1);
  });
});

describe('POST …/sessions when storing fails after the provider started a browser', () => {
  it('answers 500 internal, releases that browser and lists nothing new', async () => {
    t.sessions.failNextAdd = new Error('insert failed: disk I/O error at /var/lib/db password=hunter2');
    const res = await call('POST', base, { name: 'orphan?' });
    const problem = await assertProblem(res, 500, 'internal');
    expect(problem.detail).not.toMatch(/disk|password|hunter2/);

    const created = t.provider.calls.filter((c) => c.op === 'create').at(-1);
    const released = t.provider.calls.flatMap((c) => (c.op === 'release' ? [c.providerSessionId] : []));
    expect(created).toBeDefined();
    expect(released).toHaveLength(1);
    expect(t.provider.running).toEqual([existing.providerSessionId]);
    expect(await listTotal()).toBe(1);
    expect(t.logs.some((l) => l.level === 50 && l.requestId === problem.requestId)).toBe(true);
  });

  it('still answers 500 (and logs the browser it could not release) when the release fails too', async () => {
    // The server composes CreateSession with its logger; the test app does not, so start one that does.
    const logged: Array<Record<string, unknown>> = [];
    const logger = { warn() {}, error: (details: Record<string, unknown>) => void logged.push(details) };
    let useCase: CreateSession | undefined;
    await t.close();
    t = await createTestApp({
      overrides: { useCases: { sessions: { create: { execute: (input) => useCase!.execute(input) } } } },
    });
    const { clock, sessions, projects, agents, provider, idempotency } = t;
    const ids = { next: () => randomUUID() };
    const audit = new AuditTrail({ auditLog: t.auditLog, transactions: directTransactions, ids, clock });
    useCase = new CreateSession({
      projects,
      agents,
      sessions,
      provider,
      idempotency,
      ids,
      clock,
      logger,
      audit,
    });
    user = await t.signUpAndIn();
    const project = await call('POST', '/v1/projects', { name: 'F' });
    base = `/v1/browserbase/projects/${((await project.json()) as { id: string }).id}/sessions`;
    existing = await startSession();
    t.sessions.failNextAdd = new Error('insert failed');
    t.provider.failNext('release', 'provider_unavailable');
    await assertProblem(await call('POST', base, {}), 500, 'internal');
    expect(await listTotal()).toBe(1);
    const leaked = t.provider.running.filter((id) => id !== existing.providerSessionId);
    expect(leaked).toHaveLength(1);
    expect(logged).toEqual([expect.objectContaining({ providerSessionId: leaked[0] })]);
  });
});

describe('other session operations when the provider fails', () => {
  it.each(PROVIDER_FAILURES)(
    'release: $code → $status problem, the session stays active',
    async ({ code, status }) => {
      t.provider.failNext('release', code, 5);
      await assertProblem(await call('POST', `${base}/${existing.id}:release`), status, code);
      const res = await call('GET', `${base}/${existing.id}`);
      expect(((await res.json()) as SessionJson).status).toBe('RUNNING');
      expect(t.provider.running).toEqual([existing.providerSessionId]);
    },
  );

  it.each(PROVIDER_FAILURES)('logs: $code → $status problem', async ({ code, status }) => {
    t.provider.failNext('logs', code, 5);
    await assertProblem(await call('GET', `${base}/${existing.id}/logs`), status, code);
  });

  it.each(PROVIDER_FAILURES)('get: $code → 200 with the stored state and X-Sync-Error', async ({ code }) => {
    t.provider.failNext('get', code);
    const res = await call('GET', `${base}/${existing.id}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-sync-error')).toBe(code);
    expect(((await res.json()) as SessionJson).status).toBe('RUNNING');
  });
});
