import type { CdpBrowserMessage, CdpCommand } from '../../cdp/cdpMessages.ts';
import type { CdpCapabilityConnection } from '../../ProviderCapabilities.ts';
import { checkCdpCommand } from '../connect/cdpCommandPolicy.ts';
import type { LocalBrowserSession } from '../session/LocalBrowserSession.ts';
import type { CdpConnection } from './CdpRouter.ts';

/**
 * Opens an in-process CDP client on a running session's browser (the `cdp` capability): a router
 * connection with a browser-target session of its own, like a `connectUrl` client's, whose every
 * command passes `checkCdpCommand` first (a refused one is answered with the policy's CDP error and
 * never reaches the browser). It is not a tracked socket, so it does not keep a session without
 * `keepAlive` alive; the session closes it when it ends. Null when the session has ended or its
 * browser is gone.
 */
export async function openInProcessCdpClient(
  session: LocalBrowserSession,
  deliver: (message: CdpBrowserMessage) => void,
  onClose: () => void,
): Promise<CdpCapabilityConnection | null> {
  if (session.ended) return null;
  const { browser } = session;
  let handedOut = false;
  let letGo = (): void => {};
  let connection: CdpConnection;
  try {
    connection = await browser.router.openClient(deliver, () => {
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
  const folders = { downloadsDir: browser.downloadsDir };
  const client: CdpCapabilityConnection = {
    send(command: CdpCommand): void {
      // Checked as the connect proxy checks a client's text: the browser gets the re-serialised command.
      const decision = checkCdpCommand(JSON.stringify(command), folders);
      if (decision.allowed) {
        connection.send(decision.command);
        return;
      }
      const refusal: CdpBrowserMessage = {
        id: decision.id ?? command.id,
        error: { code: decision.code, message: decision.message },
        ...(decision.sessionId === undefined ? {} : { sessionId: decision.sessionId }),
      };
      // Answers arrive asynchronously from the browser; a refusal does too, so callers see one order.
      queueMicrotask(() => {
        if (!connection.isClosed) deliver(refusal);
      });
    },
    close: () => connection.close(),
    get isClosed() {
      return connection.isClosed;
    },
  };
  letGo = session.holdInProcessClient(client);
  handedOut = true;
  return client;
}
