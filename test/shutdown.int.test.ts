import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { type ServerProcess, startServerProcess } from './serverProcess.ts';

describe('SIGTERM with a Playwright client connected (npm start, local Chromium)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'browserdeck-shutdown-'));
  let server: ServerProcess | undefined;

  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('disconnects the client, stores the session COMPLETED at that moment, and exits 0 within the grace', async () => {
    const env = { DATA_DIR: dir, SHUTDOWN_GRACE_SEC: '8', LOCAL_WARM_BROWSERS: '0' };
    server = await startServerProcess(env);
    const post = async <T = Record<string, string>>(
      path: string,
      body: unknown,
      token?: string,
    ): Promise<T> => {
      const res = await fetch(`${server!.url}${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify(body),
      });
      return (await res.json()) as T;
    };
    await post('/v1/auth/signup', { email: 'term@example.com', password: 'password-123' });
    const { access_token: token } = await post('/v1/auth/signin', {
      email: 'term@example.com',
      password: 'password-123',
    });
    const { project } = await post<{ project: { id: string } }>('/v1/auth/sync', {}, token);
    const session = await post<{ id: string; status: string; connectUrl: string }>(
      `/v1/local/projects/${project.id}/sessions`,
      { timeoutSec: 21_600 },
      token,
    );
    expect(session.status).toBe('RUNNING');
    const browser = await chromium.connectOverCDP(session.connectUrl);
    const disconnected = new Promise<void>((done) => browser.once('disconnected', () => done()));
    const page = browser.contexts()[0]!.pages()[0] ?? (await browser.contexts()[0]!.newPage());
    expect(await page.evaluate(() => 1 + 1)).toBe(2);

    const signalledAt = Date.now();
    // Exit code 0: it finished before its grace ran out (past it, the server exits 1 at once).
    expect(await server.stop()).toBe(0);
    const exitedAt = Date.now();
    await disconnected;
    expect(server.output()).not.toMatch(/shutdown grace period over/);

    server = await startServerProcess(env);
    const res = await fetch(`${server.url}/v1/local/projects/${project.id}/sessions/${session.id}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const stored = (await res.json()) as { status: string; endedAt: string };
    expect(stored.status).toBe('COMPLETED');
    const endedAt = Date.parse(stored.endedAt);
    expect(endedAt).toBeGreaterThanOrEqual(signalledAt);
    expect(endedAt).toBeLessThanOrEqual(exitedAt);
  }, 120_000);
});
