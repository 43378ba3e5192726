import http from 'node:http';
import net from 'node:net';
import type { Duplex } from 'node:stream';
import { canonicalHost } from './canonicalHost.ts';

/**
 * A session's own connect endpoint, as its `connectUrl` names it: `ws://<host>:<port><path>?…`.
 * An extension in the session's browser (Stagehand 4's service worker) opens a WebSocket to it.
 */
export interface OwnEndpoint {
  /** The host of the `connectUrl` (a name or an IP literal, IPv6 without brackets). */
  readonly host: string;
  readonly port: number;
  /** The connect path, without the query (which carries the signing key). */
  readonly path: string;
}

/** What is refused inside the tunnel, for the session's logs: `GET /healthz`, or `traffic that is not HTTP`. */
export interface OwnEndpointRefusal {
  readonly what: string;
}

const FORBIDDEN_BODY = "Browserdeck egress policy: only this session's own connect endpoint is open here.\n";

/**
 * Serves `CONNECT <host>:<port>` to a session's own endpoint when the egress policy refuses that
 * address (the service's own, usually loopback): proxy-chain hands the tunnel's socket to this
 * server (`customConnectServer`), which reads the one request the browser sends inside. Only a
 * WebSocket upgrade on exactly `path` (any query) is passed on, raw, to the real `host:port`;
 * anything else — `/healthz`, another session's connect path, a plain GET, TLS — is answered
 * `403` and the tunnel closed, and `onRefused` is told. Chromium sends `ws://` through an HTTP proxy
 * as `CONNECT`, so the path is only visible here. A `wss://` endpoint cannot be read (TLS) and is
 * not served. The service still checks the signing key: this opens no more than the endpoint a
 * client of the session may use anyway.
 */
export class OwnEndpointTunnel {
  readonly server: http.Server;
  private readonly endpoint: OwnEndpoint;
  private readonly host: string | null;
  private readonly open = new Set<Duplex>();

  constructor(endpoint: OwnEndpoint, onRefused: (refusal: OwnEndpointRefusal) => void) {
    this.endpoint = endpoint;
    this.host = canonicalHost(endpoint.host.includes(':') ? `[${endpoint.host}]` : endpoint.host);
    this.server = http.createServer((req, res) => {
      onRefused({ what: requestLine(req) });
      res
        .writeHead(403, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' })
        .end(FORBIDDEN_BODY);
    });
    this.server.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
      if (pathOf(req.url) === this.endpoint.path && req.headers.upgrade?.toLowerCase() === 'websocket') {
        this.pass(req, socket, head);
        return;
      }
      onRefused({ what: requestLine(req) });
      socket.end(
        `HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(FORBIDDEN_BODY)}\r\nConnection: close\r\n\r\n${FORBIDDEN_BODY}`,
      );
    });
    this.server.on('connection', (socket: Duplex) => this.track(socket));
    this.server.on('clientError', (_error, socket: Duplex) => {
      // TLS (an https: or wss: URL on the endpoint's port) or anything else that is not HTTP.
      onRefused({ what: 'traffic that is not plain HTTP' });
      socket.destroy();
    });
  }

  /** Is `CONNECT hostname:port` (as proxy-chain parsed it) aimed at the endpoint? */
  matches(hostname: string, port: number): boolean {
    return port === this.endpoint.port && this.host !== null && canonicalHost(hostname) === this.host;
  }

  /** Cuts every tunnel it serves, and their connections to the service. */
  close(): void {
    for (const socket of this.open) socket.destroy();
    this.open.clear();
  }

  private track(socket: Duplex): void {
    this.open.add(socket);
    socket.once('close', () => this.open.delete(socket));
  }

  /** Replays the upgrade request to the service and joins the two sockets. */
  private pass(req: http.IncomingMessage, socket: Duplex, head: Buffer): void {
    const target = net.connect({ host: this.endpoint.host, port: this.endpoint.port });
    this.track(target);
    const lines = [`${req.method} ${req.url} HTTP/${req.httpVersion}`];
    for (let i = 0; i < req.rawHeaders.length; i += 2)
      lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
    target.write(`${lines.join('\r\n')}\r\n\r\n`);
    if (head.length > 0) target.write(head);
    let connected = false;
    target.once('connect', () => {
      connected = true;
    });
    target.on('error', () => {
      // The service is not there: the browser reads a failed handshake.
      if (!connected && socket.writable)
        socket.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n');
      else socket.destroy();
    });
    socket.on('error', () => target.destroy());
    socket.on('close', () => target.destroy());
    target.on('close', () => {
      if (connected) socket.destroy();
    });
    target.pipe(socket);
    socket.pipe(target);
  }
}

/** `METHOD /path` of a request, without the query (which may carry a signing key), at most 200 characters. */
function requestLine(req: http.IncomingMessage): string {
  return `${req.method ?? ''} ${pathOf(req.url)}`.slice(0, 200);
}

/** The path of a request target, without its query. */
function pathOf(url: string | undefined): string {
  const raw = url ?? '';
  const end = raw.search(/[?#]/);
  return end === -1 ? raw : raw.slice(0, end);
}
