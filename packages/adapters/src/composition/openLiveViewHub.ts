import type { Logger } from 'pino';
import type { LiveViewHub } from '../browsers/live-view/LiveViewHub.ts';
import { ScreencastHub } from '../browsers/live-view/ScreencastHub.ts';
import type { ComposableBrowserProvider } from '../browsers/ProviderCapabilities.ts';
import type { Part } from './lifecycle/Part.ts';

/** The live-view hub, if any, as the part that closes the one the composition built. */
export interface OpenedLiveViewHub extends Part {
  readonly hub: LiveViewHub | undefined;
}

/**
 * The live-view hub: `given` (`overrides.liveView`, `null` for none), which its giver closes, or
 * one built over the provider's CDP. The built one closes while draining, before the provider
 * ends its sessions: viewers are told the end first.
 */
export function openLiveViewHub(
  provider: ComposableBrowserProvider,
  given: LiveViewHub | null | undefined,
  logger: Logger,
): OpenedLiveViewHub {
  const part = { name: 'live-view-hub', phase: 'drain' } as const;
  const cdp = provider.capabilities?.cdp;
  if (given !== undefined || !cdp) return { ...part, hub: given ?? undefined, stop: async () => {} };
  const hub = new ScreencastHub({ cdp, logger });
  return { ...part, hub, stop: () => hub.close() };
}
