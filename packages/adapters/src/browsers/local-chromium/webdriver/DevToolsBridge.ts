import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { CdpClient } from '../../cdp/CdpClient.ts';
import type { CdpUpstream } from '../../cdp/CdpConnection.ts';
import type { SessionFolders } from '../../cdp/cdpCommandPolicy.ts';
import { type GoingAway, proxyCdpConnection } from '../../cdp/proxyCdpConnection.ts';

/** A host a loopback DevTools client names (Chrome's own endpoint refuses others: DNS rebinding). */
const LOOPBACK_HOST = /^(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/;

/**
 * A DevTools HTTP and WebSocket endpoint on `127.0.0.1:<ephemeral>` for one session's browser, which
 * itself has no debugging port (it speaks DevTools over a pipe): what chromedriver, attached with
 * `goog:chromeOptions.debuggerAddress`, asks of a browser's `--remote-debugging-port`, and nothing
 * more (docs/adr/0023). `GET /json/version` (the browser's version and its WebSocket URL) and
 * `GET /json/list` (the page targets) are answered over the session's router; the browser WebSocket
 * (`/devtools/browser/<random id>`) is a client of the router like a `connectUrl` client, through
 * the same proxy and command policy (`proxyCdpConnection`). One WebSocket at a time (chromedriver's);
 * a request naming another host than loopback is refused.
 */
export class DevToolsBridge {
  /** `127.0.0.1:<port>`: chromedriver's `debuggerAddress`. */
  readonly address: string;
  private readonly server: Server;
  private readonly goingAway = new Set<GoingAway>();

  private constructor(server: Server) {
    this.server = server;
    this.address = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  /** Starts the bridge for a session's browser, reached through `upstream`, checked with its `folders`. */
  static async open(target: { upstream: CdpUpstream; folders: SessionFolders }): Promise<DevToolsBridge> {
    const socketPath = `/devtools/browser/${randomUUID()}`;
    let bridge: DevToolsBridge | null = null;
    let connected = 0;
    const server = createServer((req, res) => {
      if (!LOOPBACK_HOST.test(req.headers.host ?? '')) return answer(res, 403, { error: 'Host not allowed' });
      void serveJson(req, res, target.upstream, `ws://${bridge?.address}${socketPath}`).catch(() =>
        answer(res, 502, { error: 'The browser did not answer.' }),
      );
    });
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      const path = (req.url ?? '').split('?')[0];
      if (path !== socketPath || !LOOPBACK_HOST.test(req.headers.host ?? '') || connected > 0) {
        socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
        return;
      }
      connected += 1;
      socket.once('close', () => {
        connected -= 1;
      });
      const goingAway = proxyCdpConnection(req, socket, head, target);
      bridge?.goingAway.add(goingAway);
      socket.once('close', () => bridge?.goingAway.delete(goingAway));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    bridge = new DevToolsBridge(server);
    return bridge;
  }

  /** Cuts the WebSocket and stops listening. */
  async close(): Promise<void> {
    for (const goingAway of this.goingAway) goingAway(1001, 'The browser session has ended.');
    this.goingAway.clear();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Answers `/json/version` and `/json/list` (also `/json`) from the browser; anything else is a 404. */
async function serveJson(
  req: IncomingMessage,
  res: ServerResponse,
  upstream: CdpUpstream,
  webSocketUrl: string,
): Promise<void> {
  const path = (req.url ?? '').split('?')[0];
  if (req.method !== 'GET' || !['/json/version', '/json/list', '/json'].includes(path ?? ''))
    return answer(res, 404, { error: 'Not found' });
  const client = new CdpClient();
  client.attach(await upstream.openClient(client.receive, client.receiveClose));
  try {
    if (path === '/json/version') {
      const version = await client.send('Browser.getVersion');
      return answer(res, 200, {
        Browser: version.product,
        'Protocol-Version': version.protocolVersion,
        'User-Agent': version.userAgent,
        'V8-Version': version.jsVersion,
        'WebKit-Version': `537.36 (${String(version.revision ?? '')})`,
        webSocketDebuggerUrl: webSocketUrl,
      });
    }
    const { targetInfos } = (await client.send('Target.getTargets')) as {
      targetInfos?: Array<{ targetId: string; type: string; title: string; url: string }>;
    };
    return answer(
      res,
      200,
      (targetInfos ?? [])
        .filter((target) => target.type !== 'browser')
        .map((target) => ({
          description: '',
          id: target.targetId,
          title: target.title,
          type: target.type,
          url: target.url,
        })),
    );
  } finally {
    client.close();
  }
}

function answer(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=UTF-8',
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(text);
}
