import { promises as dns } from 'node:dns';
import { once } from 'node:events';
import http from 'node:http';
import { type Clock, SystemClock } from '@browserdeck/domain';
import {
  type PrepareRequestFunctionOpts,
  type PrepareRequestFunctionResult,
  RequestError,
} from 'proxy-chain';
import { EgressMeter } from './EgressMeter.ts';
import type { EgressPolicy } from './EgressPolicy.ts';
import type {
  EgressProxyOptions,
  EgressRefusal,
  EgressRefusalListener,
  UpstreamFailureListener,
} from './EgressProxyOptions.ts';
import { EgressServer } from './EgressServer.ts';
import { EGRESS_PAGE_HEADERS, egressErrorPage } from './egressErrorPage.ts';
import { judgeUpstreamTarget } from './judgeUpstreamTarget.ts';
import { type OwnEndpoint, OwnEndpointTunnel } from './OwnEndpointTunnel.ts';
import { pinnedLookup } from './pinnedLookup.ts';
import { type EgressLookup, resolveDestination } from './resolveDestination.ts';
import { UpstreamAgent, type UpstreamConnectFailure } from './UpstreamAgent.ts';
import { pickRoute, type UpstreamRoute } from './UpstreamRoute.ts';

export type {
  EgressProxyOptions,
  EgressRefusal,
  EgressRefusalListener,
  UpstreamFailure,
  UpstreamFailureListener,
} from './EgressProxyOptions.ts';
export { PROXY_FAILED_METHOD } from './EgressProxyOptions.ts';

type ExternalRoute = Extract<UpstreamRoute, { kind: 'external' }>;

/** What a request carried through an upstream is tagged with (proxy-chain's `customTag`). */
interface UpstreamTag {
  route: ExternalRoute;
  host: string;
  port: number;
}

/** proxy-chain's status for an upstream that refused the credentials (its 407, translated). */
const AUTH_FAILED_STATUS = 597;

/**
 * A forward HTTP proxy (plain HTTP and CONNECT) on `127.0.0.1:<random port>` for one local browser:
 * Chromium runs with `--proxy-server=<url>` and `--proxy-bypass-list=<-loopback>` (without the
 * latter Chromium sends loopback hosts around the proxy). A warm browser's proxy exists before its
 * session: the session's settings (`useUpstreams`, `setOwnEndpoint`) are set when it takes the
 * browser; a browser launched for a session gets its routes at `start`, before Chromium runs.
 *
 * **Direct requests.** The proxy resolves each target itself, keeps only the addresses the
 * `EgressPolicy` allows (on the target's port), and connects through a lookup pinned to those
 * addresses, so a name that resolves differently by the time of connecting (DNS rebinding) cannot
 * reach a refused address. It never opens a connection to a refused address.
 *
 * **Refusals people can read** (checked with Chromium 147; each is also reported to `onRefused`):
 * - plain HTTP: `403 Forbidden`, a small HTML page (nosniff) naming the URL and the rule, e.g.
 *   "Browserdeck egress policy refused http://127.0.0.1:3000/: loopback (127.0.0.0/8). See EGRESS_ALLOW.";
 * - CONNECT (https:, ws:, wss:): `403` with the same sentence as text. Chromium never shows a
 *   proxy's answer to CONNECT: the page fails with `net::ERR_TUNNEL_CONNECTION_FAILED`, and the
 *   reason is in the session's logs (`Browserdeck.egressRefused`).
 * A name that does not resolve is not a refusal: plain HTTP gets a `502` page, CONNECT a `502`.
 *
 * **Upstream proxies** (`useUpstreams`, from the session's `proxies`): a request whose host the
 * first matching route names goes through that upstream (proxy-chain's `upstreamProxyUrl`, pinned
 * to the upstream's allowed address by `checkUpstreamProxies`), or direct for `type: 'none'` and for
 * hosts no route matches. The upstream resolves the target; an IP literal or `localhost` target is
 * still judged by the policy (`judgeUpstreamTarget`). An upstream that refuses the credentials
 * (407) or cannot be reached fails the request in the browser — plain HTTP: a `502` page naming the
 * upstream for a 407, proxy-chain's bare `594 Connection Refused` (or similar 59x) for a dead one;
 * CONNECT: `ERR_TUNNEL_CONNECTION_FAILED` — and is reported to `onUpstreamFailed`, by its
 * credential-free label only.
 *
 * **The session's own connect endpoint** (`setOwnEndpoint`): `CONNECT` to the `host:port` of the
 * session's `connectUrl`, refused by the policy's defaults (a built-in range or the service's own
 * address; not by an `EGRESS_DENY` entry, which stands), is served by an `OwnEndpointTunnel` that
 * lets only a WebSocket upgrade on that session's connect path through.
 *
 * **Metering** (`takeBytes`): bytes exchanged with targets and upstreams (`EgressMeter`).
 */
export class EgressProxy {
  private readonly server: EgressServer;
  private readonly agent = new http.Agent({ keepAlive: true });
  private readonly upstreamAgent: UpstreamAgent;
  private readonly meter: EgressMeter;
  private readonly policy: EgressPolicy;
  private readonly lookup: EgressLookup;
  private readonly clock: Clock;
  private onRefused: EgressRefusalListener | undefined;
  private readonly onUpstreamFailed: UpstreamFailureListener | undefined;
  private routes: readonly UpstreamRoute[] = [];
  /** Each external route by the pinned `address:port` it dials, to name a dead upstream. */
  private routeByAddress = new Map<string, ExternalRoute>();
  /** Plain-HTTP requests sent through an upstream, to name it when it answers 407. */
  private readonly routeOf = new WeakMap<http.IncomingMessage, UpstreamTag>();
  private own: OwnEndpointTunnel | null = null;

  private constructor(options: EgressProxyOptions) {
    this.policy = options.policy;
    this.lookup = options.lookup ?? ((hostname) => dns.lookup(hostname, { all: true }));
    this.clock = options.clock ?? new SystemClock();
    this.onRefused = options.onRefused;
    this.onUpstreamFailed = options.onUpstreamFailed;
    this.upstreamAgent = new UpstreamAgent((failure) => this.upstreamUnreachable(failure));
    this.server = new EgressServer(
      { host: '127.0.0.1', port: 0, prepareRequestFunction: (request) => this.prepare(request) },
      (request, error) => this.answerFailure(request, error),
    );
    this.server.on('tunnelConnectFailed', ({ customTag, response }) => {
      const tag = customTag as UpstreamTag | undefined;
      if (tag)
        this.reportUpstream(
          tag,
          `the upstream proxy answered ${response.statusCode} ${response.statusMessage ?? ''}`.trim(),
        );
    });
    this.meter = new EgressMeter(this.server);
  }

  /** Starts a proxy listening on `127.0.0.1` on a free port. */
  static async start(options: EgressProxyOptions): Promise<EgressProxy> {
    const proxy = new EgressProxy(options);
    if (options.routes) proxy.useUpstreams(options.routes);
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

  /**
   * The session's upstream routes (`checkUpstreamProxies`), in order; empty: every request direct.
   * Requests already under way keep the route they started with.
   */
  useUpstreams(routes: readonly UpstreamRoute[]): void {
    this.routes = routes;
    this.routeByAddress = new Map(
      routes.flatMap((route) => {
        if (route.kind !== 'external') return [];
        const url = new URL(route.url);
        return [[`${url.hostname.replace(/^\[(.*)\]$/, '$1')}:${url.port || 80}`, route] as const];
      }),
    );
  }

  /**
   * Opens the session's own connect endpoint to this browser (a WebSocket upgrade on exactly its
   * path; see `OwnEndpointTunnel`), or closes it (null).
   */
  setOwnEndpoint(endpoint: OwnEndpoint | null): void {
    this.own?.close();
    this.own =
      endpoint &&
      new OwnEndpointTunnel(endpoint, ({ what }) =>
        this.report({
          host: endpoint.host.includes(':') ? `[${endpoint.host}]` : endpoint.host,
          port: endpoint.port,
          reason: `only this session's own connect endpoint is open on the service's address (not ${what})`,
          timestamp: this.clock.now().getTime(),
        }),
      );
  }

  /**
   * Bytes exchanged with the network (targets and upstream proxies, both ways) since the last call,
   * open connections included. After `close`, the rest, once.
   */
  takeBytes(): number {
    return this.meter.take();
  }

  /** Stops listening and closes every connection, through the proxy and to targets. */
  async close(): Promise<void> {
    this.agent.destroy();
    this.upstreamAgent.destroy();
    this.own?.close();
    const open = [...this.server.connections.values()];
    await this.server.close(true);
    // Their final byte counts arrive with their `close` events: wait, so `takeBytes` has them all.
    await Promise.all(open.map((socket) => (socket.closed ? undefined : once(socket, 'close'))));
  }

  private async prepare(request: PrepareRequestFunctionOpts): Promise<PrepareRequestFunctionResult> {
    const { hostname: host, port, isHttp } = request;
    // The session's own endpoint never goes through an upstream: it is the service's to open.
    const own = !isHttp && this.own?.matches(host, port) ? this.own : null;
    const route = own ? null : pickRoute(this.routes, host);
    if (route?.kind === 'external') {
      const verdict = judgeUpstreamTarget(host, port, this.policy);
      if (!verdict.allowed) throw this.refuse(host, port, verdict.reason, verdict.address);
      const tag: UpstreamTag = { route, host, port };
      this.routeOf.set(request.request, tag);
      return { upstreamProxyUrl: route.url, httpAgent: this.upstreamAgent, customTag: tag };
    }
    const destination = await resolveDestination(host, port, this.policy, this.lookup);
    if (destination.reachable) {
      return { dnsLookup: pinnedLookup(destination.addresses), httpAgent: this.agent };
    }
    // Only the policy's defaults (the service's address is loopback, private or its own) give way to
    // the session's own endpoint; an EGRESS_DENY entry naming it is the operator's word and stands.
    if (destination.refused && own && (destination.rule === 'range' || destination.rule === 'own-address'))
      return { customConnectServer: own.server };
    if (destination.refused) throw this.refuse(host, port, destination.reason, destination.address);
    throw new Unreachable(destination.reason, false);
  }

  /** Reports a refusal and returns the error that fails the request. */
  private refuse(host: string, port: number, reason: string, address: string | undefined): Unreachable {
    const timestamp = this.clock.now().getTime();
    this.report({ host, port, ...(address === undefined ? {} : { address }), reason, timestamp });
    return new Unreachable(reason, true);
  }

  /** The answer to a failed request: ours for refusals and upstream credential failures, else proxy-chain's. */
  private answerFailure(request: http.IncomingMessage, error: NodeJS.ErrnoException): RequestError | null {
    const target = request.method === 'CONNECT' ? `CONNECT ${request.url}` : shorten(request.url ?? '');
    if (error instanceof Unreachable) {
      const sentence = error.refused
        ? `Browserdeck egress policy refused ${target}: ${error.message}. See ${error.message.includes('EGRESS_DENY') ? 'EGRESS_DENY' : 'EGRESS_ALLOW'}.`
        : `Browserdeck egress proxy could not resolve the host of ${target}: ${error.message}.`;
      const status = error.refused ? 403 : 502;
      if (request.method === 'CONNECT') return new RequestError(sentence, status);
      const title = error.refused ? 'Refused by the egress policy' : 'Host not found';
      return new RequestError(egressErrorPage(title, sentence), status, EGRESS_PAGE_HEADERS);
    }
    const tag = this.routeOf.get(request);
    if (tag && error instanceof RequestError && error.statusCode === AUTH_FAILED_STATUS) {
      const reason =
        'the upstream proxy answered 407 Proxy Authentication Required: check its username and password';
      this.reportUpstream(tag, reason);
      const sentence = `Browserdeck could not load ${target} through the upstream proxy ${tag.route.label}: ${reason}.`;
      return new RequestError(egressErrorPage('Upstream proxy failed', sentence), 502, EGRESS_PAGE_HEADERS);
    }
    return null;
  }

  private upstreamUnreachable(failure: UpstreamConnectFailure): void {
    const route = this.routeByAddress.get(`${failure.address}:${failure.port}`);
    if (!route) return;
    const target = failure.target ?? { host: '', port: 0 };
    this.reportUpstream(
      { route, host: target.host, port: target.port },
      `could not connect to the upstream proxy (${failure.code})`,
    );
  }

  private reportUpstream({ route, host, port }: UpstreamTag, reason: string): void {
    try {
      this.onUpstreamFailed?.({
        upstream: route.label,
        host,
        port,
        reason,
        timestamp: this.clock.now().getTime(),
      });
    } catch {
      // A failing listener must not turn the failure into a proxy error.
    }
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

/** A URL as a page shows it: at most 200 characters. */
function shorten(url: string): string {
  return url.length > 200 ? `${url.slice(0, 199)}…` : url;
}
