import type { UpgradeRefusal, UpgradeRequest } from '../../../shared/UpgradeEndpoint.ts';
import type { LocalBrowserSession } from '../session/LocalBrowserSession.ts';
import { PROVIDER_SESSION_ID } from './connectPath.ts';
import { proxyCdpConnection } from './proxyCdpConnection.ts';
import { signingKeyMatches } from './signingKey.ts';

/** Why a connect request is refused: the host answers it as an API error (`refuseUpgrade`). */
export type ConnectRefusal = UpgradeRefusal;

/** What the provider knows of a session id: its key digest, and the session while it runs. */
export type ConnectLookup = (
  providerSessionId: string,
) => { keyDigest: Buffer; running: LocalBrowserSession | null } | null;

/**
 * Serves an upgrade matched to a session's connect endpoint (`CONNECT_PATH_TEMPLATE`): connects the
 * WebSocket to the session's browser (true; the session tracks the socket so that ending it cuts the
 * connection), or says why not for the host to answer — unknown session `not_found`, missing or
 * wrong key (checked in constant time) `unauthorized`, ended session `session_ended`, a session with
 * `maxConnections` clients connected already `rate_limited`.
 */
export function serveConnectUpgrade(
  { req, socket, head, params, query }: UpgradeRequest,
  lookup: ConnectLookup,
  maxConnections: number,
): true | ConnectRefusal {
  const providerSessionId = params.provider_session_id ?? '';
  const known = PROVIDER_SESSION_ID.test(providerSessionId) ? lookup(providerSessionId) : null;
  if (!known) return { code: 'not_found', detail: 'No such session.' };
  if (!signingKeyMatches(query.get('signingKey'), known.keyDigest)) {
    return { code: 'unauthorized', detail: 'Invalid signing key.' };
  }
  if (!known.running || known.running.ended)
    return { code: 'session_ended', detail: 'The session has ended.' };
  if (known.running.openSockets >= maxConnections)
    return {
      code: 'rate_limited',
      detail: `The session already has its most connected clients (${maxConnections}); close one first.`,
    };
  const { browser } = known.running;
  const goingAway = proxyCdpConnection(req, socket, head, {
    router: browser.router,
    folders: { downloadsDir: browser.downloadsDir },
  });
  known.running.track(socket, goingAway);
  return true;
}
