import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { matchUpgradeEndpoint } from '../../../../shared/matchUpgradeEndpoint.ts';
import { refuseUpgrade } from '../errors/refuseUpgrade.ts';
import { type AnyRoute, isUpgradeRoute } from './RouteDefinition.ts';

/** Answers the HTTP server's `upgrade` event. */
export type UpgradeHandler = (req: IncomingMessage, socket: Duplex, head: Buffer) => void;

/**
 * The server's `upgrade` handler for the upgrade routes of a route table: the request's URL is
 * parsed once and matched to the routes' path templates, under the mount prefix or without it (a
 * reverse proxy may strip it). The matched route takes the socket or names a refusal, which is
 * answered as a problem (`refuseUpgrade`), as is a path no route has (404 `not_found`).
 */
export function serveUpgrades(table: readonly AnyRoute[], mountPrefix: string): UpgradeHandler {
  const routes = table.filter(isUpgradeRoute);
  return (req, socket, head) => {
    const match = matchUpgradeEndpoint(routes, req.url, mountPrefix);
    const outcome = match
      ? match.endpoint.upgrade({ req, socket, head, params: match.params, query: match.query, mountPrefix })
      : {
          code: 'not_found' as const,
          detail: `There is no WebSocket endpoint at ${(req.url ?? '/').split('?')[0]}.`,
        };
    if (outcome !== true) refuseUpgrade(req, socket, outcome.code, outcome.detail, mountPrefix);
  };
}
