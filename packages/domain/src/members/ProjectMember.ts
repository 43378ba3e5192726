import type { ProjectRole } from '../access/projectRoles.ts';

/** A user's membership of a project (SPEC §17), with the member's e-mail as their user record has it. */
export interface ProjectMember {
  readonly projectId: string;
  readonly userId: string;
  readonly email: string;
  readonly role: ProjectRole;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}
