import type { OwnEndpoint } from './OwnEndpointTunnel.ts';

/**
 * A session's own connect endpoint from its `connectUrl` (`ws://host:port/…/connect?signingKey=…`),
 * for `EgressProxy.setOwnEndpoint`; null for a `wss:` one, whose path the egress proxy cannot read
 * inside TLS (that endpoint stays as the egress policy judges its address).
 */
export function ownEndpointOf(connectUrl: string): OwnEndpoint | null {
  const url = new URL(connectUrl);
  if (url.protocol !== 'ws:') return null;
  return {
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port === '' ? 80 : Number(url.port),
    path: url.pathname,
  };
}
