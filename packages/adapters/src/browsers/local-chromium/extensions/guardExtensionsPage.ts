import type { CdpClient } from '../../cdp/CdpClient.ts';

/** Target events that carry a target's URL. */
const TARGET_EVENTS = new Set([
  'Target.targetCreated',
  'Target.targetInfoChanged',
  'Target.attachedToTarget',
]);

/**
 * Closes, from the provider's own DevTools connection, any target showing `chrome://extensions` in
 * a browser running a session's extension. The command policy refuses clients that page; this
 * covers the extension opening it itself (`chrome.tabs.create`) for a client to attach to, whose
 * `chrome.developerPrivate` could switch the extension's `file:` access back on or load another.
 */
export async function guardExtensionsPage(cdp: CdpClient): Promise<void> {
  cdp.onEvent((event) => {
    if (!TARGET_EVENTS.has(event.method)) return;
    const info = event.params.targetInfo as { targetId?: unknown; url?: unknown } | undefined;
    if (typeof info?.targetId === 'string' && typeof info.url === 'string' && isExtensionsPage(info.url))
      cdp.fire('Target.closeTarget', { targetId: info.targetId });
  });
  await cdp.send('Target.setDiscoverTargets', { discover: true });
}

function isExtensionsPage(url: string): boolean {
  return /^(chrome:\/\/extensions|about:extensions)/i.test(url.trim());
}
