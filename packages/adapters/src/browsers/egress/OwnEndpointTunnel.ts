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
 * WebSocket upgrade on exactly `path` (any query) is passed on to the real `host:port`, and the
 * tunnel joined raw only once the service answers `101` (see `pass`); anything else — `/healthz`, another session's connect path, a plain GET, TLS — is answered
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
        this.pass(req, socket, head, onRefused);
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

  /**
   * Replays the upgrade request to the service and joins the two sockets once the service has
   * switched protocols. Nothing else of the browser's reaches the service first: bytes sent after
   * the request before the service's `101` are refused, and any other answer (the service, or a
   * reverse proxy in front of it, refusing the upgrade on a connection it keeps alive) ends both
   * sockets, so later bytes cannot become requests of their own on the service.
   */
  private pass(req: http.IncomingMessage, socket: Duplex, head: Buffer, onRefused: RefusalListener): void {
    const refuseEarly = () => onRefused({ what: 'bytes sent before the WebSocket handshake was answered' });
    if (head.length > 0) {
      refuseEarly();
      socket.destroy();
      return;
    }
    const service = net.connect({ host: this.endpoint.host, port: this.endpoint.port });
    this.track(service);
    const lines = [`${req.method} ${req.url} HTTP/${req.httpVersion}`];
    for (let i = 0; i < req.rawHeaders.length; i += 2)
      lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
    service.write(`${lines.join('\r\n')}\r\n\r\n`);
    // Until `joined`, nothing of the browser's is passed on.
    let state: 'connecting' | 'waiting' | 'joined' | 'refused' = 'connecting';
    /** Ends the tunnel with `answer` (a status line and headers), or at once (null); the service connection goes. */
    const refuse = (answer: string | null) => {
      state = 'refused';
      service.destroy();
      if (answer !== null && socket.writable) socket.end(answer);
      else socket.destroy();
    };
    const early = () => {
      if (state === 'refused') return;
      refuseEarly();
      refuse(null);
    };
    socket.on('data', early);
    let answer = Buffer.alloc(0);
    const readAnswer = (chunk: Buffer) => {
      answer = Buffer.concat([answer, chunk]);
      const headEnd = answer.indexOf('\r\n\r\n');
      if (headEnd === -1) {
        if (answer.length > MAX_ANSWER_HEAD_BYTES) refuse(bareAnswer(502, 'Bad Gateway'));
        return;
      }
      service.off('data', readAnswer);
      const status = STATUS_LINE.exec(answer.subarray(0, answer.indexOf('\r\n')).toString('latin1'));
      if (status?.[1] !== '101') {
        // The service's status only, never what follows: the browser sees a failed handshake.
        refuse(status ? bareAnswer(Number(status[1]), status[2] ?? '') : bareAnswer(502, 'Bad Gateway'));
        return;
      }
      state = 'joined';
      socket.off('data', early);
      // The handshake answer and whatever came with it, then both ways, raw.
      socket.write(answer);
      service.pipe(socket);
      socket.pipe(service);
    };
    service.on('data', readAnswer);
    service.once('connect', () => {
      if (state === 'connecting') state = 'waiting';
    });
    service.on('error', () => {
      // The service is not there: the browser reads a failed handshake.
      if (state === 'connecting') refuse(bareAnswer(502, 'Bad Gateway'));
    });
    socket.on('error', () => service.destroy());
    socket.on('close', () => service.destroy());
    service.on('close', () => {
      if (state !== 'refused') socket.destroy();
    });
  }
}

/** Told what the tunnel refused. */
type RefusalListener = (refusal: OwnEndpointRefusal) => void;

/** The most the service's answer head to an upgrade may take before it is given up on. */
const MAX_ANSWER_HEAD_BYTES = 16 * 1024;

/** `HTTP/1.1 101 Switching Protocols`: the status code and its text. */
const STATUS_LINE = /^HTTP\/1\.[01] (\d{3})(?: ([\x20-\x7e]*))?$/;

/** A status line and headers without a body, closing the connection. */
function bareAnswer(status: number, text: string): string {
  return `HTTP/1.1 ${status} ${text}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`;
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
