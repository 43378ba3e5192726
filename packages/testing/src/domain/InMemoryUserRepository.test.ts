import { describeUserRepositoryContract } from './describeUserRepositoryContract.ts';
import { InMemoryUserRepository } from './InMemoryUserRepository.ts';

describeUserRepositoryContract('InMemoryUserRepository', {
  create: async () => new InMemoryUserRepository(),
});
