import { describeUsageContract } from './describeUsageContract.ts';
import { InMemoryProjectRepository } from './InMemoryProjectRepository.ts';
import { InMemoryRunRepository } from './InMemoryRunRepository.ts';
import { InMemorySessionRepository } from './InMemorySessionRepository.ts';
import { InMemoryUsageRepository } from './InMemoryUsageRepository.ts';
import { InMemoryUserRepository } from './InMemoryUserRepository.ts';

describeUsageContract('InMemoryUsageRepository', {
  create: async () => {
    const users = new InMemoryUserRepository();
    const projects = new InMemoryProjectRepository({ users });
    const sessions = new InMemorySessionRepository();
    const runs = new InMemoryRunRepository();
    return {
      usage: new InMemoryUsageRepository({ projects, sessions, runs }),
      users,
      projects,
      sessions,
      runs,
    };
  },
});
