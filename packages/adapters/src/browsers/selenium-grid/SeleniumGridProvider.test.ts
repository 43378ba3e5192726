import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ProviderError, UnsupportedOptionError } from '@browserdeck/domain';
import { ManualClock } from '@browserdeck/testing';
import { gridRequest } from '@browserdeck/testing/selenium-grid';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SeleniumGridProvider } from './SeleniumGridProvider.ts';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A loopback stand-in for a Grid: records requests, answers with `handle`. */
async function stubGrid(
  handle: (seen: Seen, res: ServerResponse) => void,
): Promise<{ url: string; seen: Seen[]; server: Server }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      const entry = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
      seen.push(entry);
      handle(entry, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
  res
    .writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers })
    .end(JSON.stringify(body));

const servers: Server[] = [];
const providers: SeleniumGridProvider[] = [];
afterEach(async () => {
  await Promise.all(providers.splice(0).map((p) => p.close()));
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

async function providerOn(
  handle: (seen: Seen, res: ServerResponse) => void,
  gridPath = '',
  newSessionTimeoutMs = 5_000,
) {
  const grid = await stubGrid(handle);
  servers.push(grid.server);
  const gridUrl = `${grid.url.replace('http://', 'http://ops:p%40ss@')}${gridPath}`;
  const provider = new SeleniumGridProvider({
    gridUrl,
    headers: { 'x-grid-token': 't0ken' },
    publicUrl: 'http://deck.example',
    instanceId: 'i-1',
    clock: new ManualClock(new Date('2026-11-26T12:00:00Z')),
    newSessionTimeoutMs,
  });
  providers.push(provider);
  return { provider, seen: grid.seen };
}

const caught = async (work: Promise<unknown>): Promise<unknown> =>
  work.then(
    () => null,
    (error: unknown) => error,
  );

describe('SeleniumGridProvider against a stand-in Grid (no browser)', () => {
  it('sends W3C new-session requests as the Grid wants them: UTF-8 JSON, the extra headers, credentials from the URL', async () => {
    const { provider, seen } = await providerOn(
      (_seen, res) =>
        json(res, 500, {
          value: {
            error: 'session not created',
            message: 'Could not start a new session. Chrome instance exited.',
          },
        }),
      '/wd/hub',
    );
    const error = await caught(
      provider.create(gridRequest({ sessionId: 'ours-1', viewport: { width: 640, height: 480 } })),
    );
    expect(error).toMatchObject({
      code: 'provider_error',
      message: expect.stringContaining('Chrome instance exited'),
    });
    const request = seen[0]!;
    expect(request).toMatchObject({ method: 'POST', url: '/wd/hub/session' });
    expect(request.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(request.headers['x-grid-token']).toBe('t0ken');
    expect(request.headers.authorization).toBe(`Basic ${Buffer.from('ops:p@ss').toString('base64')}`);
    expect(JSON.parse(request.body)).toEqual({
      capabilities: {
        alwaysMatch: {
          browserName: 'chrome',
          'se:cdpEnabled': true,
          'se:name': 'browserdeck ours-1',
          'goog:chromeOptions': { args: ['--headless=new', '--window-size=640,480', '--no-first-run'] },
        },
      },
    });
  });

  it('a full Grid is 429 provider_rate_limited, a Grid that is down 503 provider_unavailable', async () => {
    const { provider } = await providerOn((_seen, res) =>
      json(res, 500, {
        value: {
          error: 'session not created',
          message: 'Could not start a new session. New session request timed out \nHost info: h',
        },
      }),
    );
    expect(await caught(provider.create(gridRequest()))).toMatchObject({
      code: 'provider_rate_limited',
      retryAfterSec: 10,
    });
    // A port nothing listens on any more.
    const closed = await stubGrid(() => {});
    await new Promise((resolve) => closed.server.close(resolve));
    const down = new SeleniumGridProvider({
      gridUrl: closed.url,
      publicUrl: 'http://deck.example',
      instanceId: 'i-1',
      clock: new ManualClock(new Date()),
    });
    providers.push(down);
    const error = await caught(down.create(gridRequest()));
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({
      code: 'provider_unavailable',
      message: expect.stringContaining('ECONNREFUSED'),
    });
  });

  it('past its new-session deadline it answers 504, and deletes the session should the Grid still start it', async () => {
    let answerLate: (() => void) | null = null;
    const { provider, seen } = await providerOn(
      (request, res) => {
        if (request.method === 'POST')
          answerLate = () =>
            json(res, 200, {
              value: { sessionId: 'late-1', capabilities: { 'se:cdp': 'ws://hub/session/late-1/se/cdp' } },
            });
        else json(res, 200, { value: null });
      },
      '',
      200,
    );
    expect(await caught(provider.create(gridRequest()))).toMatchObject({ code: 'provider_timeout' });
    await vi.waitFor(() => expect(answerLate).not.toBeNull());
    answerLate!();
    await vi.waitFor(() =>
      expect(seen.map((s) => `${s.method} ${s.url}`)).toContain('DELETE /session/late-1'),
    );
  });

  it('refuses a context (unsupported_option) without calling the Grid; unknown sessions answer null', async () => {
    const { provider, seen } = await providerOn((request, res) =>
      request.method === 'DELETE'
        ? json(res, 404, { value: { error: 'invalid session id', message: 'Unable to find session' } })
        : json(res, 500, {}),
    );
    await expect(provider.create(gridRequest({ contextId: 'ctx' }))).rejects.toBeInstanceOf(
      UnsupportedOptionError,
    );
    expect(await provider.get('unknown')).toBeNull();
    expect(await provider.logs('unknown')).toEqual([]);
    expect(seen).toEqual([]);
    // Releasing one this process does not hold asks the Grid to delete it (another instance's).
    expect(await provider.release('feedface')).toBeNull();
    await vi.waitFor(() =>
      expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual(['DELETE /session/feedface']),
    );
  });

  it('a session whose se:cdp cannot be reached ends ERROR and is deleted at the Grid (the create does not wait for it)', async () => {
    const { provider, seen } = await providerOn((request, res) =>
      request.method === 'POST'
        ? json(res, 200, {
            value: { sessionId: 's-9', capabilities: { 'se:cdp': 'ws://hub:4444/session/s-9/se/cdp' } },
          })
        : request.method === 'DELETE'
          ? json(res, 200, { value: null })
          : res.writeHead(404).end(),
    );
    // The log recorder connects after the create answered (issue 35: off the create path).
    expect(await provider.create(gridRequest())).toMatchObject({
      providerSessionId: 's-9',
      status: 'RUNNING',
    });
    await vi.waitFor(() => expect(seen.map((s) => `${s.method} ${s.url}`)).toContain('DELETE /session/s-9'));
    expect(await provider.get('s-9')).toMatchObject({ status: 'ERROR' });
    expect(provider.usage.sessions).toBe(0);
  });
});
