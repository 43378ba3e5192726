import type { ProviderCapabilities } from './ProviderCapabilities.ts';
import type { ProviderSessions } from './ProviderSessions.ts';

/**
 * A cloud-browser provider: a small core (its `sessions`) and optional capability objects
 * (`capabilities`), all in one style. A host's adapters may declare more capabilities of their own
 * (`C`, e.g. the WebSocket endpoints it serves).
 */
export interface BrowserProvider<C extends ProviderCapabilities = ProviderCapabilities> {
  /** `local`, `browserbase`, …: the `{provider}` path segment. */
  readonly name: string;
  /** Region codes this provider accepts; the first is the default. */
  readonly regions: readonly string[];
  /** The provider project used when a request names none. */
  readonly defaultProviderProjectId: string;
  readonly sessions: ProviderSessions;
  readonly capabilities: C;
}
