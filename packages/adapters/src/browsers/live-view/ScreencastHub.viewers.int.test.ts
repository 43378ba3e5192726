import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fakeCdpBrowser } from '@browserdeck/testing/live-view';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ScreencastHub } from './ScreencastHub.ts';

describe('ScreencastHub: viewers per session (no browser)', () => {
  let server: Server;
  let hub: ScreencastHub;

  afterEach(async () => {
    await hub?.close();
    server?.closeAllConnections();
    await new Promise((done) => server?.close(done));
  });

  async function start(maxViewersPerSession: number): Promise<(sessionId: string) => string> {
    hub = new ScreencastHub({ cdp: fakeCdpBrowser().cdp, maxViewersPerSession });
    server = createServer((_req, res) => res.writeHead(404).end());
    server.on('upgrade', (req, socket, head) => {
      const providerSessionId = new URL(req.url ?? '/', 'http://x').searchParams.get('s') ?? '';
      hub.serveViewer(req, socket, head, { providerSessionId, pageId: null, readOnly: true });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    return (sessionId) => `ws://127.0.0.1:${port}/?s=${sessionId}`;
  }

  /** A viewer that got its first message (it is being served), with the close code it hears later. */
  async function watch(url: string): Promise<{ ws: WebSocket; closed: Promise<number> }> {
    const ws = new WebSocket(url);
    const closed = once(ws, 'close').then(([code]) => code as number);
    await Promise.race([once(ws, 'message'), closed]);
    return { ws, closed };
  }

  it('closes a viewer past maxViewersPerSession with 1013, per session, and takes one again once a viewer leaves', async () => {
    const url = await start(2);
    const first = await watch(url('s1'));
    await watch(url('s1'));
    const third = await watch(url('s1'));
    expect(await third.closed).toBe(1013);
    // Another session has its own count.
    const other = await watch(url('s2'));
    expect(other.ws.readyState).toBe(WebSocket.OPEN);
    first.ws.close();
    await first.closed;
    const again = await watch(url('s1'));
    expect(again.ws.readyState).toBe(WebSocket.OPEN);
  });
});
