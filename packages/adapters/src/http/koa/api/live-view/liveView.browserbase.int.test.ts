// nock (through the fake) is loaded before the Browserbase SDK, which the provider loads on first use.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SystemClock } from '@browserdeck/domain';
import { InMemoryIdentityProvider, SequentialIdGenerator } from '@browserdeck/testing';
import { assertProblem, inMemoryStorage } from '@browserdeck/testing/adapters';
import { type FakeBrowserbaseApi, fakeBrowserbaseApi } from '@browserdeck/testing/browserbase';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browserdeck } from '../../../../composition/Browserdeck.ts';
import { createBrowserdeck } from '../../../../composition/createBrowserdeck.ts';

const BROWSERBASE = 'https://api.browserbase.test';
const BROWSERBASE_KEY = 'bb_test_live_view';

let api: FakeBrowserbaseApi;
let browserdeck: Browserdeck;
let server: Server;
let url: string;

beforeAll(async () => {
  api = fakeBrowserbaseApi(BROWSERBASE, BROWSERBASE_KEY);
  const clock = new SystemClock();
  const ids = new SequentialIdGenerator();
  browserdeck = await createBrowserdeck({
    database: { storage: inMemoryStorage(clock) },
    identity: { provider: new InMemoryIdentityProvider({ ids, clock }) },
    browsers: { browserbase: { apiKey: BROWSERBASE_KEY, projectId: 'bb-project', baseUrl: BROWSERBASE } },
    secretKey: 'a passphrase for this test only',
    logger: pino({ level: 'silent' }),
    ids,
  });
  server = createServer(browserdeck.http.app.callback());
  server.on('upgrade', browserdeck.http.handleUpgrade);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
  await browserdeck?.close();
  api?.stop();
});

const call = async (method: string, path: string, token?: string, json?: unknown) =>
  fetch(`${url}${path}`, {
    method,
    headers: {
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(json === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    ...(json === undefined ? {} : { body: JSON.stringify(json) }),
  });

async function ok<T>(res: Promise<Response>, status = 200): Promise<T> {
  const answer = await res;
  expect(answer.status, await answer.clone().text()).toBe(status);
  return (await answer.json()) as T;
}

describe('the live view with Browserbase sessions', () => {
  it('passes Browserbase’s own live URLs through, on §5’s debug and the Browserbase-compatible one', async () => {
    const credentials = { email: 'bb-live@example.com', password: 'correct horse' };
    await ok(call('POST', '/v1/auth/signup', undefined, credentials), 201);
    const { access_token: token } = await ok<{ access_token: string }>(
      call('POST', '/v1/auth/signin', undefined, credentials),
    );
    const project = await ok<{ id: string }>(call('POST', '/v1/projects', token, { name: 'BB' }), 201);
    const sessions = `/v1/browserbase/projects/${project.id}/sessions`;
    const session = await ok<{ id: string; providerSessionId: string }>(
      call('POST', sessions, token, {}),
      201,
    );

    const live = await ok<Record<string, unknown>>(call('GET', `${sessions}/${session.id}/debug`, token));

    const debug = `connect.usw2.browserbase.com/debug/${session.providerSessionId}`;
    expect(live).toEqual({
      debuggerUrl: `https://www.browserbase.com/devtools/inspector.html?wss=${debug}/devtools/page/8A1F0C2E9B7D4E6F`,
      debuggerFullscreenUrl: `https://www.browserbase.com/devtools-fullscreen/inspector.html?wss=${debug}/devtools/page/8A1F0C2E9B7D4E6F`,
      wsUrl: `wss://${debug}/devtools/browser/${session.providerSessionId}`,
      pages: [
        {
          id: '8A1F0C2E9B7D4E6F',
          url: 'about:blank',
          title: '',
          faviconUrl: '',
          debuggerUrl: `https://www.browserbase.com/devtools/inspector.html?wss=${debug}/devtools/page/8A1F0C2E9B7D4E6F`,
          debuggerFullscreenUrl: `https://www.browserbase.com/devtools-fullscreen/inspector.html?wss=${debug}/devtools/page/8A1F0C2E9B7D4E6F`,
        },
      ],
    });

    const keyed = await ok<{ key: string }>(
      call('POST', `/v1/projects/${project.id}/api-keys`, token, { name: 'sdk' }),
      201,
    );
    const compat = await ok(
      fetch(`${url}/v1/sessions/${session.id}/debug`, { headers: { 'X-BB-API-Key': keyed.key } }),
    );
    expect(compat).toEqual(live);

    // Browserbase's viewer, not ours: no token of ours was handed out, so our page admits nobody.
    await assertProblem(await fetch(`${url}/v1/live/${session.id}?token=x.y`), 401, 'unauthorized');

    await ok(call('POST', `${sessions}/${session.id}:release`, token));
    await assertProblem(await call('GET', `${sessions}/${session.id}/debug`, token), 409, 'session_ended');
  });
});
