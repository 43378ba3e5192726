import type { Project } from '../projects/Project.ts';
import type { ProjectRepository } from '../projects/ProjectRepository.ts';
import { ConflictError } from '../shared/DomainError.ts';
import type { Caller } from './Caller.ts';
import { findProjectFor } from './findProjectFor.ts';
import type { ProjectRole } from './projectRoles.ts';

/**
 * The caller's project to work in with the `least` role, refusing `project_archived` when
 * `forNewWork` and it is archived.
 */
export async function projectForWork(
  projects: ProjectRepository,
  caller: Caller,
  projectId: string,
  least: ProjectRole,
  forNewWork: boolean,
): Promise<Project> {
  const project = await findProjectFor(projects, caller, projectId, least);
  if (forNewWork && project.archived) {
    throw new ConflictError(
      'project_archived',
      'The project is archived; restore it to create sessions or agents in it.',
    );
  }
  return project;
}
