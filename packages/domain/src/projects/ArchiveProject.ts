import type { Caller } from '../access/Caller.ts';
import { findProjectFor } from '../access/findProjectFor.ts';
import type { AuditTrail } from '../audit/AuditTrail.ts';
import type { Clock } from '../shared/Clock.ts';
import type { Project } from './Project.ts';
import type { ProjectRepository } from './ProjectRepository.ts';

/** What ArchiveProject needs. */
export interface ArchiveProjectDeps {
  projects: ProjectRepository;
  clock: Clock;
  audit: AuditTrail;
}

/** Soft-deletes a project. Archiving an archived project changes nothing and succeeds. */
export class ArchiveProject {
  private readonly deps: ArchiveProjectDeps;

  constructor(deps: ArchiveProjectDeps) {
    this.deps = deps;
  }

  async execute(input: { caller: Caller; projectId: string }): Promise<Project> {
    const project = await findProjectFor(this.deps.projects, input.caller, input.projectId, 'admin');
    if (!project.archived) {
      project.archive(this.deps.clock.now());
      const change = {
        projectId: project.id,
        action: 'project.archive',
        target: { type: 'project', id: project.id },
      } as const;
      await this.deps.audit.record(input.caller, change, () => this.deps.projects.update(project));
    }
    return project;
  }
}
