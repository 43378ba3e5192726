import { promises as dns } from 'node:dns';
import http from 'node:http';
import { type Clock, SystemClock } from '@browserdeck/domain';
import {
  type PrepareRequestFunctionOpts,
  type PrepareRequestFunctionResult,
  RequestError,
  Server,
} from 'proxy-chain';
import type { EgressPolicy } from './EgressPolicy.ts';
import { pinnedLookup } from './pinnedLookup.ts';
import { type EgressLookup, resolveDestination } from './resolveDestination.ts';

/** A request the egress proxy refused; the session log records it. */
export interface EgressRefusal {
  /** The target host as the proxy parsed the request: a name, or an IP literal (IPv6 in brackets). */
  host: string;
  port: number;
  /** The refused address, when the refusal is about one. */
  address?: string;
  /** Which rule refused it, e.g. `loopback (127.0.0.0/8)`. */
  reason: string;
  /** Milliseconds since the epoch, from the proxy's clock. */
  timestamp: number;
}

/** Called for every refused request. */
export type EgressRefusalListener = (refusal: EgressRefusal) => void;

/** What an egress proxy enforces, and whom it tells. */
export interface EgressProxyOptions {
  policy: EgressPolicy;
  onRefused?: EgressRefusalListener;
  /** Name resolution (default: `dns.lookup` with `all: true`); tests inject their own. */
  lookup?: EgressLookup;
  clock?: Clock;
}

/**
 * A forward HTTP proxy (plain HTTP and CONNECT) on `127.0.0.1:<random port>` for one local browser:
 * Chromium runs with `--proxy-server=<url>` and `--proxy-bypass-list=<-loopback>` (without the
 * latter Chromium sends loopback hosts around the proxy).
 *
 * The proxy resolves each target itself, keeps only the addresses the `EgressPolicy` allows, and
 * connects through a lookup pinned to those addresses, so a name that resolves differently by the
 * time of connecting (DNS rebinding) cannot reach a refused address. It never opens a connection to
 * a refused address. A refused request fails in the browser like an unreachable host:
 * - CONNECT (https:, wss:): `403 Forbidden` → `net::ERR_TUNNEL_CONNECTION_FAILED`;
 * - plain HTTP: the connection is closed without a response → `net::ERR_EMPTY_RESPONSE` (no error
 *   page of ours is rendered).
 * (Both checked with Chromium 147; one refusal per navigation.) A name that does not resolve fails
 * the same way (CONNECT answered `502`), without a refusal.
 */
export class EgressProxy {
  private readonly server: RefusingServer;
  private readonly agent = new http.Agent({ keepAlive: true });
  private readonly policy: EgressPolicy;
  private readonly lookup: EgressLookup;
  private readonly clock: Clock;
  private onRefused: EgressRefusalListener | undefined;

  private constructor(options: EgressProxyOptions) {
    this.policy = options.policy;
    this.lookup = options.lookup ?? ((hostname) => dns.lookup(hostname, { all: true }));
    this.clock = options.clock ?? new SystemClock();
    this.onRefused = options.onRefused;
    this.server = new RefusingServer({
      host: '127.0.0.1',
      port: 0,
      prepareRequestFunction: (request) => this.prepare(request),
    });
  }

  /** Starts a proxy listening on `127.0.0.1` on a free port. */
  static async start(options: EgressProxyOptions): Promise<EgressProxy> {
    const proxy = new EgressProxy(options);
    await proxy.server.listen();
    return proxy;
  }

  /** `http://127.0.0.1:<port>`, for Chromium's `--proxy-server`. */
  get url(): string {
    return `http://127.0.0.1:${this.server.port}`;
  }

  /** Replaces the refusal listener (a warm browser's proxy exists before its session). */
  setRefusalListener(listener: EgressRefusalListener | undefined): void {
    this.onRefused = listener;
  }

  /** Stops listening and closes every connection, through the proxy and to targets. */
  async close(): Promise<void> {
    this.agent.destroy();
    await this.server.close(true);
  }

  private async prepare(request: PrepareRequestFunctionOpts): Promise<PrepareRequestFunctionResult> {
    const { hostname: host, port } = request;
    const destination = await resolveDestination(host, this.policy, this.lookup);
    if (destination.reachable) {
      return { dnsLookup: pinnedLookup(destination.addresses), httpAgent: this.agent };
    }
    if (destination.refused) {
      const { reason, address } = destination;
      const timestamp = this.clock.now().getTime();
      this.report({ host, port, ...(address === undefined ? {} : { address }), reason, timestamp });
    }
    throw new Unreachable(destination.reason, destination.refused);
  }

  private report(refusal: EgressRefusal): void {
    try {
      this.onRefused?.(refusal);
    } catch {
      // A failing listener must not turn the refusal into a proxy error page.
    }
  }
}

/** A request that may not, or cannot, be forwarded. */
class Unreachable extends Error {
  readonly refused: boolean;

  constructor(message: string, refused: boolean) {
    super(message);
    this.refused = refused;
  }
}

/** proxy-chain's server, failing `Unreachable` requests the way a browser reads as unreachable. */
class RefusingServer extends Server {
  override failRequest(request: http.IncomingMessage, error: NodeJS.ErrnoException): void {
    if (!(error instanceof Unreachable)) {
      super.failRequest(request, error);
    } else if (request.method === 'CONNECT') {
      const answer = error.refused
        ? new RequestError('Refused by the egress policy.', 403)
        : new RequestError('The host could not be resolved.', 502);
      super.failRequest(request, answer);
    } else {
      const { socket } = request;
      request.resume();
      socket.setTimeout(1000, () => socket.destroy());
      socket.end();
    }
  }
}
