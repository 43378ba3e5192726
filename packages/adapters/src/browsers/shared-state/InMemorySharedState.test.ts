import { describeBlobStoreContract, describeContextRecordsContract } from '@browserdeck/testing/adapters';
import { InMemoryBlobStore } from './InMemoryBlobStore.ts';
import { InMemoryContextRecords } from './InMemoryContextRecords.ts';

describeContextRecordsContract('InMemoryContextRecords', {
  create: async () => new InMemoryContextRecords(),
});
describeBlobStoreContract('InMemoryBlobStore', { create: async (clock) => new InMemoryBlobStore({ clock }) });
