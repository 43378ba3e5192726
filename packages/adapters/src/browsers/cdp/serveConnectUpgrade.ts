import type { Duplex } from 'node:stream';
import type { UpgradeRefusal, UpgradeRequest } from '../../shared/UpgradeEndpoint.ts';
import type { CdpUpstream } from './CdpConnection.ts';
import type { SessionFolders } from './cdpCommandPolicy.ts';
import { PROVIDER_SESSION_ID } from './connectUrl.ts';
import { type GoingAway, proxyCdpConnection } from './proxyCdpConnection.ts';
import { signingKeyMatches } from './signingKey.ts';

/** Why a connect request is refused: the host answers it as an API error (`refuseUpgrade`). */
export type ConnectRefusal = UpgradeRefusal;

/** A running session as its connect endpoint needs it. */
export interface ConnectTarget {
  /** True once the session has a terminal status. */
  readonly ended: boolean;
  /** Clients connected now. */
  readonly openSockets: number;
  /** Where each client's CDP connection is opened. */
  readonly cdpUpstream: CdpUpstream;
  /** Where file parameters may point; null when the browser runs on another host. */
  readonly folders: SessionFolders | null;
  /** Tracks a client's socket, so that ending the session cuts it. */
  track(socket: Duplex, goingAway: GoingAway): void;
}

/** What a provider knows of a session id: its key digest, and the session while it runs. */
export type ConnectLookup = (
  providerSessionId: string,
) => { keyDigest: Buffer; running: ConnectTarget | null } | null;

/**
 * Serves an upgrade matched to a session's connect endpoint (`connectPathTemplate`): connects the
 * WebSocket to the session's browser through `proxyCdpConnection` (true; the session tracks the
 * socket so that ending it cuts the connection), or says why not for the host to answer — a session
 * this process does not know `not_found` (another instance may hold it: the host's forwarding takes
 * it from there), missing or wrong key (checked in constant time) `unauthorized`, ended session
 * `session_ended`, a session with `maxConnections` clients connected already `rate_limited`.
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
  const { running } = known;
  if (!running || running.ended) return { code: 'session_ended', detail: 'The session has ended.' };
  if (running.openSockets >= maxConnections)
    return {
      code: 'rate_limited',
      detail: `The session already has its most connected clients (${maxConnections}); close one first.`,
    };
  const goingAway = proxyCdpConnection(req, socket, head, {
    upstream: running.cdpUpstream,
    folders: running.folders,
  });
  running.track(socket, goingAway);
  return true;
}
