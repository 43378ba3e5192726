import { describeRunRepositoryContract } from './describeRunRepositoryContract.ts';
import { InMemoryRunRepository } from './InMemoryRunRepository.ts';

describeRunRepositoryContract('InMemoryRunRepository', {
  create: async () => ({ runs: new InMemoryRunRepository(), givenProject: async () => {} }),
});
