import { mkdtempSync, rmSync } from 'node:fs';
import { type IncomingMessage, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import { pino } from 'pino';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHostApp } from './createHostApp.ts';

type Host = Awaited<ReturnType<typeof startHostApp>>;

describe('a host app embedding Browserdeck', () => {
  let dir: string;
  let host: Host;
  const call = async (path: string, init: { method?: string; body?: unknown; token?: string } = {}) => {
    const res = await fetch(`${host.url}${path}`, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers: {
        ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...(init.token ? { Authorization: `Bearer ${init.token}` } : {}),
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
    const text = await res.text();
    return { res, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
  };
  const signedIn = async (email: string) => {
    const credentials = { email, password: 'password-123' };
    const signup = await call('/browserdeck/v1/auth/signup', { body: credentials });
    expect(signup.res.status).toBe(201);
    const signin = await call('/browserdeck/v1/auth/signin', { body: credentials });
    return { id: (signup.body.user as { id: string }).id, token: signin.body.access_token as string };
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'browserdeck-embedded-'));
    host = await startHostApp({
      port: 0,
      dataDir: dir,
      logger: pino({ level: 'silent' }),
      browsers: { local: { warmBrowsers: 0, maxSessions: 2 } },
      http: { metricsEndpoint: { token: 'host-metrics-token-0123456789' } },
    });
  });
  afterAll(async () => {
    await host?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves the Browserdeck API under its prefix and its own routes beside it, sharing the data', async () => {
    const user = await signedIn('host@example.com');
    const created = await call('/browserdeck/v1/projects', {
      body: { name: 'From the host' },
      token: user.token,
    });
    expect(created.res.status).toBe(201);
    expect((await call(`/my/projects/count?user=${user.id}`)).body).toEqual({
      user: user.id,
      activeProjects: 1,
    });
    expect((await call('/')).body).toEqual({ host: 'an app that embeds Browserdeck', api: '/browserdeck' });
    const unknown = await call('/browserdeck/v1/nothing');
    expect(unknown.res.status).toBe(404);
    expect(unknown.res.headers.get('content-type')).toContain('application/problem+json');
    expect(unknown.body.type).toBe('/browserdeck/docs#error-not_found');
    const openapi = await call('/browserdeck/openapi.json');
    expect((openapi.body.servers as Array<{ url: string }>)[0]?.url).toBe('/browserdeck');
  });

  it('passes the metrics option through: /browserdeck/metrics takes the token it was given', async () => {
    expect((await call('/browserdeck/metrics')).res.status).toBe(401);
    const res = await fetch(`${host.url}/browserdeck/metrics`, {
      headers: { Authorization: 'Bearer host-metrics-token-0123456789' },
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('browserdeck_active_sessions');
  });

  it('refuses a WebSocket upgrade it cannot serve with a problem whose type follows the prefix', async () => {
    const res = await new Promise<IncomingMessage>((resolve, reject) => {
      const req = request(`${host.url}/browserdeck/v1/local/sessions/unknown`, {
        headers: { Connection: 'Upgrade', Upgrade: 'websocket' },
      });
      req
        .on('response', resolve)
        .on('upgrade', () => reject(new Error('upgraded')))
        .on('error', reject);
      req.end();
    });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toBe('application/problem+json');
    const body = JSON.parse(await text(res)) as { type: string };
    expect(body.type).toBe('/browserdeck/docs#error-not_found');
  });

  it('hands out a local session under the prefix that Playwright drives over connectUrl, then releases it', async () => {
    const user = await signedIn('driver@example.com');
    const project = (await call('/browserdeck/v1/auth/sync', { method: 'POST', token: user.token })).body
      .project as { id: string };
    const sessions = `/browserdeck/v1/local/projects/${project.id}/sessions`;
    const created = await call(sessions, { body: { timeoutSec: 120 }, token: user.token });
    expect(created.res.status).toBe(201);
    expect(created.body).toMatchObject({ status: 'RUNNING', provider: 'local' });
    const connectUrl = created.body.connectUrl as string;
    expect(connectUrl.startsWith(`${host.url.replace('http', 'ws')}/browserdeck/v1/local/sessions/`)).toBe(
      true,
    );

    const browser = await chromium.connectOverCDP(connectUrl);
    try {
      const page = await browser.contexts()[0]!.newPage();
      await page.setContent('<title>embedded</title><p id="p">driven through the host</p>');
      expect(await page.textContent('#p')).toBe('driven through the host');
    } finally {
      await browser.close().catch(() => {});
    }
    const released = await call(`${sessions}/${created.body.id as string}:release`, {
      method: 'POST',
      token: user.token,
    });
    expect(released.res.status, JSON.stringify(released.body)).toBe(200);
    expect(released.body.status).toBe('COMPLETED');
    // The in-process use case sees what the HTTP client did.
    const listed = await host.browserdeck.useCases.sessions.list.execute({
      caller: { kind: 'user', userId: user.id },
      projectId: project.id,
    });
    expect(listed).toMatchObject({ total: 1 });
  });
});
