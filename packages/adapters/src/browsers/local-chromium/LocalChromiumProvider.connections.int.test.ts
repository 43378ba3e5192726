import { once } from 'node:events';
import {
  browserRequest,
  eventually,
  startLocalProvider,
  upgradeStatus,
} from '@browserdeck/testing/local-chromium';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { LocalChromiumProvider } from './LocalChromiumProvider.ts';

/** A raw CDP client on a session's `connectUrl`, open, with the close code it hears later. */
async function connect(url: string): Promise<{ ws: WebSocket; closed: Promise<number> }> {
  const ws = new WebSocket(url);
  const closed = once(ws, 'close').then(([code]) => code as number);
  await once(ws, 'open');
  return { ws, closed };
}

describe('LocalChromiumProvider: connected clients per session (real Chromium)', () => {
  let started: Awaited<ReturnType<typeof startLocalProvider>>;
  let provider: LocalChromiumProvider;

  beforeAll(async () => {
    started = await startLocalProvider({ maxConnectionsPerSession: 2 });
    provider = started.provider;
  });

  afterAll(() => started?.close());

  it('refuses a connection past maxConnectionsPerSession with 429, and takes one again once a client leaves', async () => {
    const session = await provider.create(browserRequest());
    const first = await connect(session.connectUrl);
    const second = await connect(session.connectUrl);
    expect(await upgradeStatus(session.connectUrl)).toBe(429);
    first.ws.close();
    await first.closed;
    await eventually(async () => (await upgradeStatus(session.connectUrl)) === 101);
    second.ws.close();
    await provider.release(session.providerSessionId);
  });

  it('tells a connected client the session is going with close code 1001 when it ends', async () => {
    const session = await provider.create(browserRequest());
    const client = await connect(session.connectUrl);
    await provider.release(session.providerSessionId);
    expect(await client.closed).toBe(1001);
  });
});
