import type { BrowserProvider } from '../providers/BrowserProvider.ts';
import { UnsupportedOptionError } from '../shared/DomainError.ts';
import type { BrowserContextStore } from './BrowserContextStore.ts';

/** The provider's context store, or `unsupported_option` naming `contexts` when it has none. */
export function contextStoreOf(provider: BrowserProvider): BrowserContextStore {
  const { contexts } = provider.capabilities;
  if (contexts) return contexts;
  throw new UnsupportedOptionError(
    'contexts',
    `The ${provider.name} browser provider does not support browser contexts.`,
  );
}
