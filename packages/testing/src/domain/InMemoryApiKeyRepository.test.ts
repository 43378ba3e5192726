import { describeApiKeyRepositoryContract } from './describeApiKeyRepositoryContract.ts';
import { InMemoryApiKeyRepository } from './InMemoryApiKeyRepository.ts';

describeApiKeyRepositoryContract('in-memory', {
  create: async () => ({ apiKeys: new InMemoryApiKeyRepository(), givenProject: async () => {} }),
});
