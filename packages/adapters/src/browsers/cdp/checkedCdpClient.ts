import type { CdpCapabilityConnection } from '../ProviderCapabilities.ts';
import type { CdpConnection } from './CdpConnection.ts';
import { checkCdpCommand, refusalAnswer, type SessionFolders } from './cdpCommandPolicy.ts';
import type { CdpBrowserMessage, CdpCommand } from './cdpMessages.ts';

/**
 * An in-process client (the `cdp` capability) over an open `connection`, whose every command passes
 * `checkCdpCommand` as a `connectUrl` client's text does: the browser gets the re-serialised command,
 * and a refused one is answered through `deliver` with the policy's CDP error (asynchronously, as
 * the browser's answers arrive, so callers see one order) and never reaches the browser.
 */
export function checkedCdpClient(
  connection: CdpConnection,
  folders: SessionFolders | null,
  deliver: (message: CdpBrowserMessage) => void,
): CdpCapabilityConnection {
  return {
    send(command: CdpCommand): void {
      const decision = checkCdpCommand(JSON.stringify(command), folders);
      if (decision.allowed) {
        connection.send(decision.command);
        return;
      }
      const refusal = refusalAnswer(decision.id === null ? { ...decision, id: command.id } : decision);
      queueMicrotask(() => {
        if (!connection.isClosed) deliver(refusal);
      });
    },
    close: () => connection.close(),
    get isClosed() {
      return connection.isClosed;
    },
  };
}
