/**
 * The roles a project member holds (SPEC §17), lowest first: each holds every right of the ones
 * before it. `viewer` reads everything but secret values; `developer` works in the project
 * (sessions, agents, runs, contexts, extensions, files); `admin` manages it (members, API keys,
 * settings, archive); `owner`, exactly one, also deletes and transfers it.
 */
export const PROJECT_ROLES = ['viewer', 'developer', 'admin', 'owner'] as const;
/** One of `PROJECT_ROLES`. */
export type ProjectRole = (typeof PROJECT_ROLES)[number];

/** The roles an invitation or a role change may give: `owner` passes only by transfer. */
export const MEMBER_ROLES = ['admin', 'developer', 'viewer'] as const;
/** One of `MEMBER_ROLES`. */
export type MemberRole = (typeof MEMBER_ROLES)[number];

/** The roles an API key acts with: `developer` (the default) or the narrower `viewer`. */
export const API_KEY_ROLES = ['developer', 'viewer'] as const;
/** One of `API_KEY_ROLES`. */
export type ApiKeyRole = (typeof API_KEY_ROLES)[number];

/** Whether `role` holds every right of `least`. */
export function roleAtLeast(role: ProjectRole, least: ProjectRole): boolean {
  return PROJECT_ROLES.indexOf(role) >= PROJECT_ROLES.indexOf(least);
}

/** What each role may do, in words: the docs' table and the OpenAPI document say it so. */
export const ROLE_RIGHTS: Readonly<Record<ProjectRole, string>> = {
  viewer:
    'reads the project, its members, sessions, agents, runs and logs; secret values masked; live view read-only',
  developer: 'also creates and ends sessions, agents, runs, contexts, extensions and files',
  admin:
    'also manages members and invitations, API keys, the project’s name, archive and restore, and reads the audit log',
  owner: 'also deletes the project and transfers it to another member (exactly one owner)',
};
