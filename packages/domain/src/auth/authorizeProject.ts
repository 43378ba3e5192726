import { ForbiddenForApiKeyError } from '../shared/DomainError.ts';
import { type Caller, requireUser } from './Caller.ts';

/**
 * What a caller does with a project: `work` inside it (its sessions, agents, stats, logs; reading
 * the project itself), or `manage` the project (rename, archive, delete, API keys).
 */
export type ProjectAccess = 'work' | 'manage';

/**
 * The one authorisation rule (http-api.md §12): a user reaches their own projects for anything; an
 * API key reaches only its own project, and only for `work`. Answers the owner id the project is
 * looked up under, so a project of someone else stays a 404 for users; a key aimed at any other
 * project, or at `manage`, is refused with `forbidden_for_api_key`.
 */
export function authorizeProject(caller: Caller, projectId: string, access: ProjectAccess): string {
  if (caller.kind === 'user') return caller.userId;
  if (access === 'manage') requireUser(caller, 'Managing a project and its API keys');
  if (caller.projectId !== projectId) {
    throw new ForbiddenForApiKeyError('This API key acts only for its own project.');
  }
  return caller.ownerId;
}
