import type { Clock } from '@browserdeck/domain';
import type { EgressPolicy } from './EgressPolicy.ts';
import type { EgressLookup } from './resolveDestination.ts';
import type { UpstreamRoute } from './UpstreamRoute.ts';

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

/** A request an upstream proxy did not carry: it could not be reached, or it refused (407, …). */
export interface UpstreamFailure {
  /** The upstream proxy as the session named it, without credentials (`http://proxy.example:8080`). */
  upstream: string;
  /** The request's target. */
  host: string;
  port: number;
  /** What went wrong, e.g. `the upstream proxy answered 407 Proxy Authentication Required`. */
  reason: string;
  /** Milliseconds since the epoch, from the proxy's clock. */
  timestamp: number;
}

/** Called for every request an upstream proxy failed. */
export type UpstreamFailureListener = (failure: UpstreamFailure) => void;

/** The log `method` of a request an upstream proxy failed (`UpstreamFailure`). */
export const PROXY_FAILED_METHOD = 'Browserdeck.proxyFailed';

/** What an egress proxy enforces, and whom it tells. */
export interface EgressProxyOptions {
  policy: EgressPolicy;
  onRefused?: EgressRefusalListener;
  onUpstreamFailed?: UpstreamFailureListener;
  /** Name resolution (default: `dns.lookup` with `all: true`); tests inject their own. */
  lookup?: EgressLookup;
  clock?: Clock;
  /**
   * The session's upstream routes from the first request (`useUpstreams`): a browser launched for a
   * session talks through them from its start. Absent: direct until `useUpstreams`.
   */
  routes?: readonly UpstreamRoute[];
}
