import { describeBrowserContextStoreContract } from './describeBrowserContextStoreContract.ts';
import { InMemoryBrowserContextStore } from './InMemoryBrowserContextStore.ts';
import { ManualClock } from './ManualClock.ts';

describeBrowserContextStoreContract('in-memory', {
  create: async () => {
    const occupied = new Set<string>();
    const contexts = new InMemoryBrowserContextStore({
      clock: new ManualClock(),
      inUse: (projectId, contextId) => occupied.has(`${projectId}/${contextId}`),
    });
    return {
      contexts,
      occupy: async (projectId, contextId) => {
        occupied.add(`${projectId}/${contextId}`);
        return async () => {
          occupied.delete(`${projectId}/${contextId}`);
        };
      },
    };
  },
});
