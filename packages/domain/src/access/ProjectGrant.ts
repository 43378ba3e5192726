import type { Project } from '../projects/Project.ts';
import type { ProjectRole } from './projectRoles.ts';

/** A project and the role its caller acts with there: what `authorizeProject` answers. */
export interface ProjectGrant {
  readonly project: Project;
  readonly role: ProjectRole;
}

/**
 * What the one project lookup behind a request reads (`ProjectRepository.findAccess`): the project,
 * the role a user holds in it (null when the user is no member, or when no user was asked about),
 * and whether its owner's account is disabled (SPEC §17), so the project is closed to everyone.
 */
export interface ProjectAccessRecord {
  readonly project: Project;
  readonly role: ProjectRole | null;
  readonly ownerDisabled: boolean;
}
