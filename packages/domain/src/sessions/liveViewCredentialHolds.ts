import type { ApiKeyRepository } from '../apiKeys/ApiKeyRepository.ts';
import type { IdentityProvider } from '../auth/IdentityProvider.ts';
import type { UserRepository } from '../auth/UserRepository.ts';
import type { ProjectRepository } from '../projects/ProjectRepository.ts';
import type { Clock } from '../shared/Clock.ts';
import type { LiveViewTokenClaims } from './liveViewToken.ts';

/** What checking a live-view token's credential needs. */
export interface LiveViewCredentialDeps {
  projects: ProjectRepository;
  apiKeys: ApiKeyRepository;
  users: UserRepository;
  identity: Pick<IdentityProvider, 'isSignInActive'>;
  clock: Clock;
}

/**
 * Whether what a live-view token was made for still holds (http-api.md §14, SPEC §17): its project
 * exists, is not archived and its owner's account is not disabled; the token's user is still a
 * member, with a role that may drive the browser unless the token is read-only; and its API key is
 * neither revoked nor expired, or its sign-in session has not ended. Reads the stores every time, as
 * `Authenticate` does, so a change (a removed member, a revoked key) holds on every instance.
 */
export async function liveViewCredentialHolds(
  deps: LiveViewCredentialDeps,
  claims: Pick<LiveViewTokenClaims, 'projectId' | 'userId' | 'credential' | 'readOnly'>,
): Promise<boolean> {
  const { credential } = claims;
  const access = await deps.projects.findAccess(
    claims.projectId,
    credential.kind === 'apiKey' ? null : claims.userId,
  );
  if (!access || access.project.archived || access.ownerDisabled) return false;
  if (credential.kind === 'apiKey') {
    const key = await deps.apiKeys.findInProject(claims.projectId, credential.keyId);
    if (!key?.isUsableAt(deps.clock.now())) return false;
    return claims.readOnly || key.role !== 'viewer';
  }
  if (!access.role || (!claims.readOnly && access.role === 'viewer')) return false;
  if ((await deps.users.findById(claims.userId))?.disabledAt) return false;
  if (credential.kind === 'signIn') {
    return deps.identity.isSignInActive({ userId: claims.userId, sessionId: credential.signInId });
  }
  return true;
}
