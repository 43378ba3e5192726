import { NotFoundError } from '../shared/DomainError.ts';
import type { Project } from './Project.ts';
import type { ProjectRepository } from './ProjectRepository.ts';

/** The owner's project, or `not_found` (also when it belongs to someone else). */
export async function findOwnedProject(
  projects: ProjectRepository,
  ownerId: string,
  projectId: string,
): Promise<Project> {
  const project = await projects.findOwned(ownerId, projectId);
  if (!project) throw new NotFoundError('Project');
  return project;
}
