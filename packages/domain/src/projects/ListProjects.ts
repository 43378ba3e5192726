import type { Project } from './Project.ts';
import type { ProjectRepository } from './ProjectRepository.ts';

/** What ListProjects needs. */
export interface ListProjectsDeps {
  projects: ProjectRepository;
}

/** The owner's active (or, asked for, archived) projects, newest first. */
export class ListProjects {
  private readonly deps: ListProjectsDeps;

  constructor(deps: ListProjectsDeps) {
    this.deps = deps;
  }

  execute(input: { ownerId: string; archived?: boolean | undefined }): Promise<Project[]> {
    return this.deps.projects.listOwned(input.ownerId, { archived: input.archived ?? false });
  }
}
