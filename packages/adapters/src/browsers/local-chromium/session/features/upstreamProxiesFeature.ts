import { promises as dns } from 'node:dns';
import { checkUpstreamProxies } from '../../../egress/checkUpstreamProxies.ts';
import type { EgressPolicy } from '../../../egress/EgressPolicy.ts';
import { ownEndpointOf } from '../../../egress/ownEndpointOf.ts';
import type { LocalBrowserSession } from '../LocalBrowserSession.ts';
import type { SessionFeature } from '../SessionFeature.ts';

/**
 * Upstream proxies: checked, and their addresses pinned, before any slot or browser is taken (a
 * refused upstream is a 400). A cold browser talks through them from launch (its extension starts
 * then); any browser gets them, with its own connect endpoint open to it (Stagehand 4's extension
 * connects back from inside), once its session is open, before any client can connect. A session's
 * last proxy bytes are kept for the meter once it ends (`onEnded`).
 */
export function upstreamProxiesFeature(deps: {
  egress: EgressPolicy;
  onEnded: (session: LocalBrowserSession) => void;
}): SessionFeature {
  return {
    name: 'upstream-proxies',
    async prepare(request) {
      const routes = await checkUpstreamProxies(request.proxies, deps.egress, (host) =>
        dns.lookup(host, { all: true }),
      );
      return {
        routes,
        open: (session) =>
          session.browser.useSessionEgress({
            routes,
            ownEndpoint: ownEndpointOf(session.snapshot.connectUrl),
          }),
        ended: deps.onEnded,
      };
    },
  };
}
