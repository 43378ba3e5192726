import { describeRunLogStoreContract } from './describeRunLogStoreContract.ts';
import { InMemoryRunLogStore } from './InMemoryRunLogStore.ts';

describeRunLogStoreContract('InMemoryRunLogStore', {
  create: async () => ({ logs: new InMemoryRunLogStore(), givenRun: async () => {} }),
});
