import { describeProjectRepositoryContract } from './describeProjectRepositoryContract.ts';
import { InMemoryProjectRepository } from './InMemoryProjectRepository.ts';
import { InMemoryUserRepository } from './InMemoryUserRepository.ts';

describeProjectRepositoryContract('InMemoryProjectRepository', {
  create: async () => ({ projects: new InMemoryProjectRepository(), users: new InMemoryUserRepository() }),
});
