import { describeSessionSharesContract } from '@browserdeck/testing/adapters';
import { InMemorySessionShares } from './InMemorySessionShares.ts';

describeSessionSharesContract('InMemorySessionShares', {
  create: async () => new InMemorySessionShares(),
});
