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
 * session's extension: `chrome://extensions`' `chrome.developerPrivate` could switch the extension's
 * `file:` access back on or load another. A second belt: a close comes after the page committed,
 * and a client's new-document script ran there first (issue 34), which is why no such page ever
 * commits (`blockBrowserPages`); what this closes now are the error pages left in their place.
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
