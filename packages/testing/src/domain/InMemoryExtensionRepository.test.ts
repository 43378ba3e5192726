import { describeExtensionRepositoryContract } from './describeExtensionRepositoryContract.ts';
import { InMemoryExtensionRepository } from './InMemoryExtensionRepository.ts';

describeExtensionRepositoryContract('in-memory', {
  create: async () => ({ extensions: new InMemoryExtensionRepository(), givenProject: async () => {} }),
});
