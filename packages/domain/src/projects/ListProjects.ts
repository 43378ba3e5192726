import type { Caller } from '../access/Caller.ts';
import type { Project } from './Project.ts';
import type { ProjectRepository } from './ProjectRepository.ts';

/** What ListProjects needs. */
export interface ListProjectsDeps {
  projects: ProjectRepository;
}

/** The caller's active (or, asked for, archived) projects, newest first; a key's own project only. */
export class ListProjects {
  private readonly deps: ListProjectsDeps;

  constructor(deps: ListProjectsDeps) {
    this.deps = deps;
  }

  async execute(input: { caller: Caller; archived?: boolean | undefined }): Promise<Project[]> {
    const archived = input.archived ?? false;
    const { caller } = input;
    if (caller.kind === 'user') return this.deps.projects.listOwned(caller.userId, { archived });
    // A key sees its own project only, and only while the project is active.
    const own = await this.deps.projects.findOwned(caller.ownerId, caller.projectId);
    return own && own.archived === archived ? [own] : [];
  }
}
