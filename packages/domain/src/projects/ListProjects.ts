import type { Caller } from '../access/Caller.ts';
import type { ProjectGrant } from '../access/ProjectGrant.ts';
import type { ProjectRepository } from './ProjectRepository.ts';

/** What ListProjects needs. */
export interface ListProjectsDeps {
  projects: ProjectRepository;
}

/**
 * The active (or, asked for, archived) projects the caller is a member of, newest first, each with
 * the caller's role (SPEC §17); a key's own project only, with the key's role.
 */
export class ListProjects {
  private readonly deps: ListProjectsDeps;

  constructor(deps: ListProjectsDeps) {
    this.deps = deps;
  }

  async execute(input: { caller: Caller; archived?: boolean | undefined }): Promise<ProjectGrant[]> {
    const archived = input.archived ?? false;
    const { caller } = input;
    if (caller.kind === 'user') return this.deps.projects.listForMember(caller.userId, { archived });
    // A key (or the service) sees its own project only, and only while the project is active.
    const own = await this.deps.projects.findAccess(caller.projectId, null);
    if (!own || own.ownerDisabled || own.project.archived !== archived) return [];
    return [{ project: own.project, role: caller.kind === 'apiKey' ? caller.role : 'owner' }];
  }
}
