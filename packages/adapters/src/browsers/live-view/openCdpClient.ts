import { CdpClient } from '../cdp/CdpClient.ts';
import type { CdpEvent } from '../cdp/cdpMessages.ts';
import type { CdpCapability } from '../ProviderCapabilities.ts';

/**
 * Opens a CDP client on a session's browser through a provider's `cdp` capability; null when the
 * provider cannot reach the session, or the connection closed while it opened. `onClose` runs once
 * the connection closes, by either side.
 */
export async function openCdpClient(
  cdp: CdpCapability,
  providerSessionId: string,
  handlers: { onEvent: (event: CdpEvent) => void; onClose: () => void },
): Promise<CdpClient | null> {
  const client = new CdpClient();
  client.onEvent(handlers.onEvent);
  client.onClose(handlers.onClose);
  const connection = await cdp.open(providerSessionId, client.receive, client.receiveClose);
  if (!connection) return null;
  if (client.isClosed) {
    connection.close();
    return null;
  }
  client.attach(connection);
  return client;
}
