import { describeProjectRepositoryContract } from './describeProjectRepositoryContract.ts';
import { InMemoryMemberRepository } from './InMemoryMemberRepository.ts';
import { InMemoryProjectRepository } from './InMemoryProjectRepository.ts';
import { InMemoryUserRepository } from './InMemoryUserRepository.ts';

describeProjectRepositoryContract('InMemoryProjectRepository', {
  create: async () => {
    const users = new InMemoryUserRepository();
    const projects = new InMemoryProjectRepository({ users });
    return { projects, users, members: new InMemoryMemberRepository({ projects }) };
  },
});
