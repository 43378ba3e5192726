import { describeIdempotencyStoreContract } from './describeIdempotencyStoreContract.ts';
import { InMemoryIdempotencyStore } from './InMemoryIdempotencyStore.ts';

describeIdempotencyStoreContract('InMemoryIdempotencyStore', {
  create: async () => ({ idempotency: new InMemoryIdempotencyStore() }),
});
