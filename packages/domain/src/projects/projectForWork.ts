import type { Caller } from '../auth/Caller.ts';
import { ConflictError } from '../shared/DomainError.ts';
import { findOwnedProject } from './findOwnedProject.ts';
import type { Project } from './Project.ts';
import type { ProjectRepository } from './ProjectRepository.ts';

/** The caller's project to work in, refusing `project_archived` when `forNewWork` and it is archived. */
export async function projectForWork(
  projects: ProjectRepository,
  caller: Caller,
  projectId: string,
  forNewWork: boolean,
): Promise<Project> {
  const project = await findOwnedProject(projects, caller, projectId);
  if (forNewWork && project.archived) {
    throw new ConflictError(
      'project_archived',
      'The project is archived; restore it to create sessions or agents in it.',
    );
  }
  return project;
}
