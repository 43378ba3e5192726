import type { Project } from '../projects/Project.ts';
import type { ProjectRepository } from '../projects/ProjectRepository.ts';
import { authorizeProject } from './authorizeProject.ts';
import type { Caller } from './Caller.ts';
import type { ProjectRole } from './projectRoles.ts';

/** The caller's project, authorised for the `least` role (`authorizeProject`). */
export async function findProjectFor(
  projects: ProjectRepository,
  caller: Caller,
  projectId: string,
  least: ProjectRole,
): Promise<Project> {
  return (await authorizeProject(projects, caller, projectId, least)).project;
}
