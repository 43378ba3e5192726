import type { Caller } from '../access/Caller.ts';
import { findProjectFor } from '../access/findProjectFor.ts';
import type { Project } from './Project.ts';
import type { ProjectRepository } from './ProjectRepository.ts';

/** What GetProject needs. */
export interface GetProjectDeps {
  projects: ProjectRepository;
}

/** One of the owner's projects. */
export class GetProject {
  private readonly deps: GetProjectDeps;

  constructor(deps: GetProjectDeps) {
    this.deps = deps;
  }

  execute(input: { caller: Caller; projectId: string }): Promise<Project> {
    return findProjectFor(this.deps.projects, input.caller, input.projectId, 'viewer');
  }
}
