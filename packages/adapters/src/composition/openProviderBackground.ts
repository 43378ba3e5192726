import type { ComposableBrowserProvider } from '../browsers/ProviderCapabilities.ts';
import type { Part } from './lifecycle/Part.ts';

/**
 * The provider's background work (Browserbase's searches for browsers left by failed creates),
 * started with the host's background work and stopped once the provider ended its sessions, while
 * the database is still open. A part that does nothing for a provider without any.
 */
export function openProviderBackground(provider: ComposableBrowserProvider): Part {
  const part = { name: 'provider-background', phase: 'end-sessions' } as const;
  const background = provider.capabilities?.background;
  if (!background) return { ...part, stop: async () => {} };
  return { ...part, start: () => background.start(), stop: () => background.stop() };
}
