import { describeSessionRepositoryContract } from './describeSessionRepositoryContract.ts';
import { InMemorySessionRepository } from './InMemorySessionRepository.ts';

describeSessionRepositoryContract('InMemorySessionRepository', {
  create: async () => ({ sessions: new InMemorySessionRepository(), givenProject: async () => {} }),
});
