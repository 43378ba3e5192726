import { describeMemberRepositoryContract } from './describeMemberRepositoryContract.ts';
import { InMemoryMemberRepository } from './InMemoryMemberRepository.ts';
import { InMemoryProjectRepository } from './InMemoryProjectRepository.ts';
import { InMemoryUserRepository } from './InMemoryUserRepository.ts';

describeMemberRepositoryContract('InMemoryMemberRepository', {
  create: async () => {
    const users = new InMemoryUserRepository();
    const projects = new InMemoryProjectRepository({ users });
    return { members: new InMemoryMemberRepository({ projects }), projects, users };
  },
});
