import type { GrantableRole, ProjectRole } from '../api/types.ts';

const RANK: Record<ProjectRole, number> = { viewer: 0, developer: 1, admin: 2, owner: 3 };

/** The roles, least to most (`RANK` is typed by the API's roles, so a new one fails typecheck). */
export const PROJECT_ROLES = Object.keys(RANK) as readonly ProjectRole[];

/** The roles an invitation or a role change may give: every one but `owner` (that passes by transfer). */
export const GRANTABLE_ROLES: readonly GrantableRole[] = ['viewer', 'developer', 'admin'];

/**
 * Whether `role` may do what needs `least` (docs/teams.md): a viewer reads, a developer also
 * creates and ends things, an admin also manages members, keys and the project, the owner also
 * deletes and transfers it. The server decides; the console only hides what would be refused.
 */
export function roleAllows(role: ProjectRole | undefined, least: ProjectRole): boolean {
  return role !== undefined && RANK[role] >= RANK[least];
}
