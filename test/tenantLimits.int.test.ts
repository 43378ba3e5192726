import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cdpCall, openCdp } from './rawCdp.ts';
import { type ServerProcess, startServerProcess } from './serverProcess.ts';

/** The service's resident memory now, in MiB (`/proc/<pid>/status`). */
function rssMiB(pid: number): number {
  const kib = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
  return kib / 1024;
}

describe('every tenant gets a bounded, fair share of the host (npm start, local Chromium)', () => {
  let server: ServerProcess;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'browserdeck-limits-'));
    server = await startServerProcess({
      DATA_DIR: dir,
      LOCAL_MAX_SESSIONS: '4',
      LOCAL_SESSION_LOG_MAX_MB: '1',
    });
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function call(
    method: string,
    path: string,
    options: { token?: string; key?: string; body?: unknown } = {},
  ) {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: {
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        ...(options.key ? { 'x-bb-api-key': options.key } : {}),
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : undefined };
  }

  /** A user signed up and in, with the default project `sync` makes. */
  async function givenUser(email: string) {
    expect(
      (await call('POST', '/v1/auth/signup', { body: { email, password: 'password-123' } })).status,
    ).toBe(201);
    const signIn = await call('POST', '/v1/auth/signin', { body: { email, password: 'password-123' } });
    const token = signIn.body.access_token as string;
    const sync = await call('POST', '/v1/auth/sync', { token });
    return { token, projectId: sync.body.project.id as string };
  }

  const sessions = (projectId: string) => `/v1/local/projects/${projectId}/sessions`;

  it('counts the fair share per account: two projects cannot take every slot, and another user still gets one', async () => {
    const alice = await givenUser('alice-share@example.com');
    const second = await call('POST', '/v1/projects', { token: alice.token, body: { name: 'Second' } });
    expect(second.status).toBe(201);
    const key = (
      await call('POST', `/v1/projects/${second.body.id}/api-keys`, {
        token: alice.token,
        body: { name: 'ci' },
      })
    ).body.key as string;
    const started: Array<[string, string]> = [];
    for (const projectId of [alice.projectId, second.body.id as string]) {
      const res = await call('POST', sessions(projectId), {
        token: alice.token,
        body: { timeoutSec: 21_600 },
      });
      expect(res.status, res.text).toBe(201);
      started.push([projectId, res.body.id]);
    }
    // LOCAL_MAX_SESSIONS=4 gives each account 2, whichever of its projects or credentials asks.
    const third = await call('POST', sessions(alice.projectId), { token: alice.token, body: {} });
    expect(third.status).toBe(429);
    expect(third.body).toMatchObject({
      code: 'provider_rate_limited',
      detail: expect.stringContaining('account'),
    });
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
    const byKey = await call('POST', '/v1/sessions', { key, body: {} });
    expect(byKey.status).toBe(429);
    expect(byKey.body).toMatchObject({ statusCode: 429 });
    const bob = await givenUser('bob-share@example.com');
    const bobs = await call('POST', sessions(bob.projectId), { token: bob.token, body: {} });
    expect(bobs.status, bobs.text).toBe(201);
    started.push([bob.projectId, bobs.body.id]);
    for (const [projectId, id] of started) {
      const token = projectId === bob.projectId ? bob.token : alice.token;
      expect((await call('POST', `${sessions(projectId)}/${id}:release`, { token })).status).toBe(200);
    }
  }, 60_000);

  it('refuses an extensionId the project does not have with 404 extension_not_found on both APIs, and starts nothing', async () => {
    const carol = await givenUser('carol-ext@example.com');
    const key = (
      await call('POST', `/v1/projects/${carol.projectId}/api-keys`, {
        token: carol.token,
        body: { name: 'ci' },
      })
    ).body.key as string;
    const native = await call('POST', sessions(carol.projectId), {
      token: carol.token,
      body: { extensionId: 'ext-1' },
    });
    expect(native.status).toBe(404);
    expect(native.body).toMatchObject({ code: 'extension_not_found' });
    for (const body of [{ extensionId: 'ext-1' }, { browserSettings: { extensionId: 'ext-1' } }]) {
      const compat = await call('POST', '/v1/sessions', { key, body });
      expect(compat.status).toBe(404);
      expect(compat.body).toMatchObject({ statusCode: 404, message: expect.stringMatching(/extension/i) });
    }
    const list = await call('GET', sessions(carol.projectId), { token: carol.token });
    expect(list.body.total).toBe(0);
  });

  it('keeps a page logging 100 × 20 MiB within the log budget: the service stays small and the log routes answer bounded bodies', async () => {
    const dave = await givenUser('dave-logs@example.com');
    const key = (
      await call('POST', `/v1/projects/${dave.projectId}/api-keys`, {
        token: dave.token,
        body: { name: 'ci' },
      })
    ).body.key as string;
    const created = await call('POST', sessions(dave.projectId), { token: dave.token, body: {} });
    expect(created.status, created.text).toBe(201);
    const pid = server.child.pid as number;
    const before = rssMiB(pid);
    const cdp = await openCdp(created.body.connectUrl);
    try {
      const { targetInfos } = await cdpCall<{ targetInfos: Array<{ targetId: string; type: string }> }>(
        cdp,
        'Target.getTargets',
      );
      const page = targetInfos.find((t) => t.type === 'page')!;
      const { sessionId } = await cdpCall<{ sessionId: string }>(cdp, 'Target.attachToTarget', {
        targetId: page.targetId,
        flatten: true,
      });
      // The page logs on its own; this client never enables Runtime, so it is sent none of it.
      await cdpCall(
        cdp,
        'Runtime.evaluate',
        {
          expression: `(async () => {
            const big = 'x'.repeat(20 * 1024 * 1024);
            for (let i = 0; i < 100; i++) { console.log(i, big); await new Promise((r) => setTimeout(r, 0)); }
            for (let i = 0; i < 100; i++) console.log('tail', i, 'y'.repeat(20 * 1024));
            console.log('flood done');
          })()`,
          awaitPromise: true,
        },
        sessionId,
      );
    } finally {
      cdp.close();
    }
    const logsPath = `${sessions(dave.projectId)}/${created.body.id}/logs?limit=500`;
    const lastMessage = async () => {
      const page = await call('GET', logsPath, { token: dave.token });
      let all = page.body.logs as Array<{ request?: { params?: { args?: Array<{ value?: unknown }> } } }>;
      for (let next = page.body.nextCursor; next; ) {
        const more = await call('GET', `${logsPath}&cursor=${encodeURIComponent(next)}`, {
          token: dave.token,
        });
        all = all.concat(more.body.logs);
        next = more.body.nextCursor;
      }
      return all.at(-1)?.request?.params?.args?.[0]?.value;
    };
    await expect.poll(lastMessage, { timeout: 60_000 }).toBe('flood done');
    const after = rssMiB(pid);
    console.info(`service RSS ${before.toFixed(0)} MiB before the flood, ${after.toFixed(0)} MiB after`);
    // Before the byte budget the recorder kept every 20 MiB line: the service grew by about 2 GiB and
    // stayed there. Now the logs keep 1 MiB; what remains is garbage of the last messages not yet
    // collected (about 230 MiB measured), well under this bound.
    expect(after - before).toBeLessThan(512);

    const compat = await call('GET', `/v1/sessions/${created.body.id}/logs`, { key });
    expect(compat.status).toBe(200);
    expect(Buffer.byteLength(compat.text)).toBeLessThan(1024 * 1024 + 64 * 1024);
    const entries = compat.body as Array<Record<string, unknown>>;
    expect(entries[0]).toMatchObject({ method: 'Browserdeck.logsDropped', sessionId: created.body.id });
    for (const entry of entries.slice(1)) {
      const { sessionId: _, ...recorded } = entry;
      expect(Buffer.byteLength(JSON.stringify(recorded))).toBeLessThanOrEqual(16 * 1024);
    }
    expect(JSON.stringify(entries.at(-2))).toMatch(/characters cut/);
    expect(
      (await call('POST', `${sessions(dave.projectId)}/${created.body.id}:release`, { token: dave.token }))
        .status,
    ).toBe(200);
  }, 180_000);
});
