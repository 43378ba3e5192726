import { NotFoundError } from '../shared/DomainError.ts';
import type { ProjectRepository } from './ProjectRepository.ts';

/** What DeleteProject needs. */
export interface DeleteProjectDeps {
  projects: ProjectRepository;
}

/** Hard-deletes a project with everything it owns. */
export class DeleteProject {
  private readonly deps: DeleteProjectDeps;

  constructor(deps: DeleteProjectDeps) {
    this.deps = deps;
  }

  async execute(input: { ownerId: string; projectId: string }): Promise<void> {
    const deleted = await this.deps.projects.delete(input.ownerId, input.projectId);
    if (!deleted) throw new NotFoundError('Project');
  }
}
