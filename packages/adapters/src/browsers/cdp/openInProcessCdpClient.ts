import type { CdpCapabilityConnection } from '../ProviderCapabilities.ts';
import type { CdpConnection, CdpUpstream } from './CdpConnection.ts';
import type { SessionFolders } from './cdpCommandPolicy.ts';
import type { CdpBrowserMessage } from './cdpMessages.ts';
import { checkedCdpClient } from './checkedCdpClient.ts';

/** A running session as an in-process CDP client needs it. */
export interface InProcessCdpTarget {
  /** True once the session has a terminal status. */
  readonly ended: boolean;
  readonly cdpUpstream: CdpUpstream;
  readonly folders: SessionFolders | null;
  /** Holds the client so that ending the session closes it; returns how to let go of it. */
  holdInProcessClient(client: { close(): void }): () => void;
}

/**
 * Opens an in-process CDP client on a running session's browser (the `cdp` capability): a
 * connection with a browser session of its own, like a `connectUrl` client's, whose every command
 * passes `checkCdpCommand` first (`checkedCdpClient`). It is not a tracked socket, so it does not
 * keep a session without `keepAlive` alive; the session closes it when it ends. Null when the
 * session has ended or its browser cannot be reached.
 */
export async function openInProcessCdpClient(
  session: InProcessCdpTarget,
  deliver: (message: CdpBrowserMessage) => void,
  onClose: () => void,
): Promise<CdpCapabilityConnection | null> {
  if (session.ended) return null;
  let handedOut = false;
  let letGo = (): void => {};
  let connection: CdpConnection;
  try {
    connection = await session.cdpUpstream.openClient(deliver, () => {
      letGo();
      if (handedOut) onClose();
    });
  } catch {
    return null;
  }
  if (session.ended || connection.isClosed) {
    connection.close();
    return null;
  }
  const client = checkedCdpClient(connection, session.folders, deliver);
  letGo = session.holdInProcessClient(client);
  handedOut = true;
  return client;
}
