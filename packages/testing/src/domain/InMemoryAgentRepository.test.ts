import { describeAgentRepositoryContract } from './describeAgentRepositoryContract.ts';
import { InMemoryAgentRepository } from './InMemoryAgentRepository.ts';

describeAgentRepositoryContract('InMemoryAgentRepository', {
  create: async () => ({ agents: new InMemoryAgentRepository(), givenProject: async () => {} }),
});
