import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserdeckOrm, createMikroOrm, migrateToLatest } from '@browserdeck/adapters';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHostApp } from './createHostApp.ts';

describe('a host app embedding Browserdeck', () => {
  let dir: string;
  let orm: BrowserdeckOrm;
  let server: Server;
  let base: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'browserdeck-embedded-'));
    orm = await createMikroOrm({ databaseUrl: `sqlite:${join(dir, 'host.sqlite')}` });
    await migrateToLatest(orm);
    server = (await createHostApp({ orm, dataDir: dir, logger: pino({ level: 'silent' }) })).listen(
      0,
      '127.0.0.1',
    );
    await new Promise((r) => server.once('listening', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
    await orm.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves the Browserdeck API under its prefix and its own routes beside it, sharing the data', async () => {
    const post = (path: string, body: unknown, token?: string) =>
      fetch(`${base}${path}`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          ...(token ? { Authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify(body),
      });
    const signup = await post('/browserdeck/v1/auth/signup', {
      email: 'host@example.com',
      password: 'password-123',
    });
    expect(signup.status).toBe(201);
    const { user } = (await signup.json()) as { user: { id: string } };
    const signinResponse = await post('/browserdeck/v1/auth/signin', {
      email: 'host@example.com',
      password: 'password-123',
    });
    const signin = (await signinResponse.json()) as { access_token: string };
    expect(
      (await post('/browserdeck/v1/projects', { name: 'From the host' }, signin.access_token)).status,
    ).toBe(201);
    const count = await (await fetch(`${base}/my/projects/count?user=${user.id}`)).json();
    expect(count).toEqual({ user: user.id, activeProjects: 1 });
    const unknown = await fetch(`${base}/browserdeck/v1/nothing`);
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('content-type')).toContain('application/problem+json');
  });

  it('passes the metrics option through: /browserdeck/metrics takes the token it was given', async () => {
    const host = await createHostApp({
      orm,
      dataDir: dir,
      logger: pino({ level: 'silent' }),
      metricsEndpoint: { token: 'host-metrics-token-0123456789' },
    });
    const guarded = host.listen(0, '127.0.0.1');
    await new Promise((r) => guarded.once('listening', r));
    try {
      const at = `http://127.0.0.1:${(guarded.address() as AddressInfo).port}/browserdeck/metrics`;
      expect((await fetch(at)).status).toBe(401);
      const res = await fetch(at, { headers: { Authorization: 'Bearer host-metrics-token-0123456789' } });
      expect(res.status).toBe(200);
      expect((await fetch(`${base}/browserdeck/metrics`)).status).toBe(200);
    } finally {
      await new Promise((r) => guarded.close(r));
    }
  });
});
