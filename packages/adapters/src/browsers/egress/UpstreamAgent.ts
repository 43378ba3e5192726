import http from 'node:http';
import type { Duplex } from 'node:stream';

/** A connection to an upstream proxy that could not be opened, and for which request. */
export interface UpstreamConnectFailure {
  /** The upstream's address and port as dialled (the pinned IP literal). */
  readonly address: string;
  readonly port: number;
  /** The target of the request it was for (its `Host`: the `CONNECT` authority, or the page's host). */
  readonly target: { readonly host: string; readonly port: number } | null;
  /** The socket error's code (`ECONNREFUSED`, `ETIMEDOUT`, …). */
  readonly code: string;
}

/**
 * The keep-alive agent for connections to upstream proxies, telling `onConnectFailed` when one
 * cannot be opened (a dead upstream): proxy-chain answers the browser with an error status then,
 * but emits nothing, and the session's logs must say what happened.
 */
export class UpstreamAgent extends http.Agent {
  private readonly onConnectFailed: (failure: UpstreamConnectFailure) => void;

  constructor(onConnectFailed: (failure: UpstreamConnectFailure) => void) {
    super({ keepAlive: true });
    this.onConnectFailed = onConnectFailed;
  }

  override createConnection(
    options: http.ClientRequestArgs,
    callback?: (err: Error | null, stream: Duplex) => void,
  ): Duplex | null | undefined {
    const socket = super.createConnection(options, callback);
    if (!socket) return socket;
    let connected = false;
    socket.once('connect', () => {
      connected = true;
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      if (connected) return;
      this.onConnectFailed({
        address: String(options.host ?? options.hostname ?? ''),
        port: Number(options.port),
        target: targetOf(hostHeader(options.headers)),
        code: error.code ?? error.message,
      });
    });
    return socket;
  }
}

/**
 * The `Host` of the request: proxy-chain sends it as an object for `CONNECT` and as raw header pairs
 * when forwarding plain HTTP (the agent is not told the request's path).
 */
function hostHeader(headers: http.ClientRequestArgs['headers']): string | null {
  if (isPairs(headers)) {
    const at = headers.findIndex((name, i) => i % 2 === 0 && name.toLowerCase() === 'host');
    return at === -1 ? null : String(headers[at + 1]);
  }
  const host = headers?.host ?? headers?.Host;
  return typeof host === 'string' ? host : null;
}

function isPairs(headers: http.ClientRequestArgs['headers']): headers is readonly string[] {
  return Array.isArray(headers);
}

/** `host[:port]` as a target (port 80 when absent); null when it is not one. */
function targetOf(authority: string | null): { host: string; port: number } | null {
  if (!authority) return null;
  try {
    const url = new URL(`http://${authority}`);
    return { host: url.hostname, port: url.port === '' ? 80 : Number(url.port) };
  } catch {
    return null;
  }
}
