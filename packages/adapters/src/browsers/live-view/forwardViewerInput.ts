import type { CdpClient } from '../cdp/CdpClient.ts';
import type { ViewerMessage } from './parseViewerMessage.ts';
import type { TabScreencast } from './TabScreencast.ts';
import { toInputCommand } from './toInputCommand.ts';

/**
 * Pointer moves and wheel turns dropped while this many of the connection's commands are unanswered:
 * a viewer cannot queue input faster than the page handles it.
 */
const MAX_PENDING_INPUT = 32;

/**
 * Sends a viewer's input to the tab it watches, once that tab's screencast is attached; pointer
 * moves and wheel turns are dropped while the browser is behind.
 */
export function forwardViewerInput(
  client: CdpClient | null,
  tab: TabScreencast | undefined,
  message: ViewerMessage,
): void {
  if (!tab?.sessionId || !client) return;
  const droppable = message.type === 'wheel' || (message.type === 'mouse' && message.action === 'move');
  if (droppable && client.outstanding >= MAX_PENDING_INPUT) return;
  const command = toInputCommand(message, tab.metadata);
  if (command) client.fire(command.method, command.params, tab.sessionId);
}
