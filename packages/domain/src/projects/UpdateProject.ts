import type { Caller } from '../access/Caller.ts';
import { findProjectFor } from '../access/findProjectFor.ts';
import type { AuditTrail } from '../audit/AuditTrail.ts';
import type { Clock } from '../shared/Clock.ts';
import { ValidationError } from '../shared/DomainError.ts';
import type { Project } from './Project.ts';
import type { ProjectRepository } from './ProjectRepository.ts';

export interface UpdateProjectInput {
  caller: Caller;
  projectId: string;
  name?: string | undefined;
  /** `true` archives, `false` restores. */
  archived?: boolean | undefined;
}

/** What UpdateProject needs. */
export interface UpdateProjectDeps {
  projects: ProjectRepository;
  clock: Clock;
  audit: AuditTrail;
}

/** Renames, archives or restores a project (at least one of them). The slug never changes. */
export class UpdateProject {
  private readonly deps: UpdateProjectDeps;

  constructor(deps: UpdateProjectDeps) {
    this.deps = deps;
  }

  async execute(input: UpdateProjectInput): Promise<Project> {
    if (input.name === undefined && input.archived === undefined) {
      throw new ValidationError([{ path: '', message: 'give at least one of name, archived' }]);
    }
    const project = await findProjectFor(this.deps.projects, input.caller, input.projectId, 'admin');
    const now = this.deps.clock.now();
    if (input.name !== undefined) project.rename(input.name, now);
    if (input.archived === true) project.archive(now);
    if (input.archived === false) project.restore(now);
    const target = { type: 'project', id: project.id };
    const action = input.name === undefined && input.archived === true ? 'project.archive' : 'project.update';
    await this.deps.audit.record(input.caller, { projectId: project.id, action, target }, () =>
      this.deps.projects.update(project),
    );
    return project;
  }
}
