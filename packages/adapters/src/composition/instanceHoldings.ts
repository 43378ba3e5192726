import type { InstanceHoldings } from '../instances/InstanceHoldings.ts';
import type { BrowserdeckStorage } from './BrowserdeckStorage.ts';

/** What the storage keeps per instance for its sessions: its accounts' slots and its context holds. */
export function instanceHoldings(storage: BrowserdeckStorage): InstanceHoldings[] {
  const { sessionShares, contexts } = storage;
  return [
    ...(sessionShares
      ? [{ what: 'sessionShares', letGoOfInstance: (id: string) => sessionShares.freeInstance(id) }]
      : []),
    ...(contexts
      ? [{ what: 'contexts', letGoOfInstance: (id: string) => contexts.letGoOfInstance(id) }]
      : []),
  ];
}
