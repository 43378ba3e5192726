import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { matchUpgradeEndpoint } from '../../../../shared/matchUpgradeEndpoint.ts';
import { refuseUpgrade } from '../errors/refuseUpgrade.ts';
import { type AnyRoute, isUpgradeRoute } from './RouteDefinition.ts';

/** Answers the HTTP server's `upgrade` event. */
export type UpgradeHandler = (req: IncomingMessage, socket: Duplex, head: Buffer) => void;

/**
 * Carries an upgrade about one session to the server instance that holds its browser, when another
 * one does: resolves true when it took the socket, false to leave the request to this instance.
 * `params` are the matched endpoint's (`session_id` or `provider_session_id` name the session).
 */
export type UpgradeForwarding = (
  req: IncomingMessage,
  socket: Duplex,
  head: Buffer,
  params: Readonly<Record<string, string>>,
) => Promise<boolean>;

/**
 * The server's `upgrade` handler for the upgrade routes of a route table: the request's URL is
 * parsed once and matched to the routes' path templates, under the mount prefix or without it (a
 * reverse proxy may strip it). With `forwarding`, a matched request is first offered to it (another
 * instance may hold the session); else, or when it declines, the matched route takes the socket or
 * names a refusal, which is answered as a problem (`refuseUpgrade`), as is a path no route has (404
 * `not_found`).
 */
export function serveUpgrades(
  table: readonly AnyRoute[],
  mountPrefix: string,
  forwarding?: UpgradeForwarding,
): UpgradeHandler {
  const routes = table.filter(isUpgradeRoute);
  return (req, socket, head) => {
    const match = matchUpgradeEndpoint(routes, req.url, mountPrefix);
    if (!match) {
      const detail = `There is no WebSocket endpoint at ${(req.url ?? '/').split('?')[0]}.`;
      refuseUpgrade(req, socket, 'not_found', detail, mountPrefix);
      return;
    }
    const serveHere = () => {
      const outcome = match.endpoint.upgrade({
        ...{ req, socket, head, params: match.params, query: match.query, mountPrefix },
      });
      if (outcome !== true) refuseUpgrade(req, socket, outcome.code, outcome.detail, mountPrefix);
    };
    if (!forwarding) return serveHere();
    forwarding(req, socket, head, match.params).then(
      (forwarded) => {
        if (!forwarded && !socket.destroyed) serveHere();
      },
      () =>
        refuseUpgrade(req, socket, 'internal', 'The session’s instance could not be looked up.', mountPrefix),
    );
  };
}
