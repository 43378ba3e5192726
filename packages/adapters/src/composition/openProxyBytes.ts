import type { SessionRepository } from '@browserdeck/domain';
import type { Logger } from 'pino';
import type { ComposableBrowserProvider } from '../browsers/ProviderCapabilities.ts';
import type { Part } from './lifecycle/Part.ts';
import { ProxyBytesFlusher } from './ProxyBytesFlusher.ts';

/**
 * The proxy bytes this instance's browsers metered (local: at the egress proxy), stored every
 * `intervalSec`, for a provider that meters them (a part that does nothing otherwise). It flushes
 * once the provider ended its sessions, so their last bytes are stored too, and before the database
 * closes.
 */
export function openProxyBytes(
  provider: ComposableBrowserProvider,
  deps: { sessions: Pick<SessionRepository, 'addProxyBytes'>; logger: Logger; intervalSec: number },
): Part {
  const part = { name: 'proxy-bytes', phase: 'flush' } as const;
  const metering = provider.capabilities.proxyMetering;
  if (!metering) return { ...part, stop: async () => {} };
  const flusher = new ProxyBytesFlusher({ ...deps, take: () => metering.take() });
  return { ...part, start: () => flusher.start(), stop: () => flusher.close() };
}
