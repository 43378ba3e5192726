import { authorizeProject, type ProjectAccess } from '../auth/authorizeProject.ts';
import type { Caller } from '../auth/Caller.ts';
import { NotFoundError } from '../shared/DomainError.ts';
import type { Project } from './Project.ts';
import type { ProjectRepository } from './ProjectRepository.ts';

/**
 * The caller's project, authorised for `access` (`authorizeProject`), or `not_found` (also when it
 * belongs to someone else).
 */
export async function findOwnedProject(
  projects: ProjectRepository,
  caller: Caller,
  projectId: string,
  access: ProjectAccess = 'work',
): Promise<Project> {
  const ownerId = authorizeProject(caller, projectId, access);
  const project = await projects.findOwned(ownerId, projectId);
  if (!project) throw new NotFoundError('Project');
  return project;
}
