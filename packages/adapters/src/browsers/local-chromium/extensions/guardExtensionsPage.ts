import type { CdpClient } from '../../cdp/CdpClient.ts';
import { opensBrowserPage } from '../../cdp/opensBrowserPage.ts';

/** Target events that carry a target's URL. */
const TARGET_EVENTS = new Set([
  'Target.targetCreated',
  'Target.targetInfoChanged',
  'Target.attachedToTarget',
]);

/**
 * Closes, from the provider's own DevTools connection, any target showing one of the browser's own
 * pages (`chrome://extensions` first, and every page `opensBrowserPage` names) in a browser running a
 * session's extension. The command policy refuses clients those pages; this covers the extension
 * opening one itself (`chrome.tabs.create`) for a client to attach to: `chrome://extensions`'
 * `chrome.developerPrivate` could switch the extension's `file:` access back on or load another.
 */
export async function guardExtensionsPage(cdp: CdpClient): Promise<void> {
  cdp.onEvent((event) => {
    if (!TARGET_EVENTS.has(event.method)) return;
    const info = event.params.targetInfo as { targetId?: unknown; url?: unknown } | undefined;
    if (typeof info?.targetId === 'string' && typeof info.url === 'string' && opensBrowserPage(info.url))
      cdp.fire('Target.closeTarget', { targetId: info.targetId });
  });
  await cdp.send('Target.setDiscoverTargets', { discover: true });
}
