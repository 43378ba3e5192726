import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { refuseUpgrade } from '../../http/koa/errors/refuseUpgrade.ts';
import { downloadsDirOf } from './cdpCommandPolicy.ts';
import { parseConnectRequest } from './connectPath.ts';
import type { LocalBrowserSession } from './LocalBrowserSession.ts';
import { proxyWebSocketUpgrade } from './proxyWebSocketUpgrade.ts';
import { signingKeyMatches } from './signingKey.ts';

/** What the provider knows of a session id: its key digest, and the session while it runs. */
export type ConnectLookup = (
  providerSessionId: string,
) => { keyDigest: Buffer; running: LocalBrowserSession | null } | null;

/**
 * Answers an HTTP upgrade for a session's connect endpoint. False when the path is not one (the
 * host handles it). Unknown session → 404; missing or wrong key (checked in constant time) → 401;
 * ended session → 410; otherwise the WebSocket is proxied to the session's browser, and the
 * session tracks both sockets so that ending it cuts the connection.
 */
export function serveConnectUpgrade(
  req: IncomingMessage,
  socket: Duplex,
  head: Buffer,
  publicUrl: string,
  lookup: ConnectLookup,
): boolean {
  const parsed = parseConnectRequest(req.url, publicUrl);
  if (!parsed) return false;
  const known = lookup(parsed.providerSessionId);
  if (!known) refuseUpgrade(req, socket, 404, 'No such session.');
  else if (!signingKeyMatches(parsed.signingKey, known.keyDigest))
    refuseUpgrade(req, socket, 401, 'Invalid signing key.');
  else if (!known.running || known.running.ended) refuseUpgrade(req, socket, 410, 'The session has ended.');
  else {
    const { port, browserPath, profileDir } = known.running.browser.process;
    const target = { port, path: browserPath, downloadsDir: downloadsDirOf(profileDir) };
    known.running.track(socket, proxyWebSocketUpgrade(req, socket, head, target));
  }
  return true;
}
