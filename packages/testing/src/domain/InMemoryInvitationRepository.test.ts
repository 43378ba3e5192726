import { Project } from '@browserdeck/domain';
import { describeInvitationRepositoryContract } from './describeInvitationRepositoryContract.ts';
import { InMemoryInvitationRepository } from './InMemoryInvitationRepository.ts';
import { InMemoryProjectRepository } from './InMemoryProjectRepository.ts';

describeInvitationRepositoryContract('InMemoryInvitationRepository', {
  create: async () => {
    const projects = new InMemoryProjectRepository();
    return {
      invitations: new InMemoryInvitationRepository({ projects }),
      givenProject: (projectId, ownerId) =>
        projects.add(
          Project.create({
            id: projectId,
            ownerId,
            name: 'P',
            slug: `p-${projectId.slice(-6)}`,
            now: new Date(0),
          }),
        ),
    };
  },
});
