import { MEMBER_ROLES, type MemberRole } from '../access/projectRoles.ts';
import type { Project } from '../projects/Project.ts';
import { Checks } from '../shared/checks.ts';
import { ConflictError } from '../shared/DomainError.ts';

/** Members a project may have, the owner included, plus its open invitations (SPEC §17). */
export const MEMBERS_PER_PROJECT_MAX = 100;
/** How long an invitation link works: 7 days. */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** What every invitation token starts with (then 32 random bytes, base64url). */
export const INVITATION_MARKER = 'bdi_';
/** An invitation token's shape. */
export const INVITATION_TOKEN_PATTERN = /^bdi_[A-Za-z0-9_-]{43}$/;

/** Refuses to change or remove the project's owner: ownership passes only by transfer (409 `owner_must_transfer`). */
export function refuseOwnerChange(project: Pick<Project, 'ownerId'>, userId: string): void {
  if (userId === project.ownerId) {
    throw new ConflictError(
      'owner_must_transfer',
      'The owner’s membership changes only by transferring the project to another member first.',
    );
  }
}

/** `role` as a role an invitation or a role change may give; `validation_failed` otherwise. */
export function checkMemberRole(role: string): MemberRole {
  new Checks()
    .require(
      (MEMBER_ROLES as readonly string[]).includes(role),
      'role',
      `must be one of ${MEMBER_ROLES.join(', ')}`,
    )
    .throwIfAny();
  return role as MemberRole;
}
