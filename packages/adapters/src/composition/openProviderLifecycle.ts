import type { ComposableBrowserProvider } from '../browsers/ProviderCapabilities.ts';
import type { Part } from './lifecycle/Part.ts';

/**
 * Starts the provider's resources (browsers, pools) when it has a lifecycle, before anything is
 * served, and returns the part that ends them at close: closing ends every session at once, and
 * `storeEnded` (one last reconcile pass) stores them with that moment while their browsers stop.
 * `storeEnded` is read at close, so it may be bound after this opens (the reconciler comes later).
 */
export async function openProviderLifecycle(
  provider: ComposableBrowserProvider,
  storeEnded: () => Promise<void>,
): Promise<Part> {
  const part = { name: 'browsers', phase: 'end-sessions' } as const;
  const lifecycle = provider.capabilities?.lifecycle;
  if (!lifecycle) return { ...part, stop: async () => {} };
  await lifecycle.start();
  return {
    ...part,
    async stop() {
      const closing = lifecycle.close();
      await storeEnded();
      await closing;
    },
  };
}
