import type { ApiKeyRepository } from '../apiKeys/ApiKeyRepository.ts';
import type { IdentityProvider } from '../auth/IdentityProvider.ts';
import type { ProjectRepository } from '../projects/ProjectRepository.ts';
import type { Clock } from '../shared/Clock.ts';
import type { LiveViewTokenClaims } from './liveViewToken.ts';

/** What checking a live-view token's credential needs. */
export interface LiveViewCredentialDeps {
  projects: ProjectRepository;
  apiKeys: ApiKeyRepository;
  identity: Pick<IdentityProvider, 'isSignInActive'>;
  clock: Clock;
}

/**
 * Whether what a live-view token was made for still holds (http-api.md §14): its project exists and
 * is not archived, and its API key is neither revoked nor expired, or its sign-in session has not
 * ended. Reads the stores every time, as `Authenticate` does, so a change holds on every instance.
 */
export async function liveViewCredentialHolds(
  deps: LiveViewCredentialDeps,
  claims: Pick<LiveViewTokenClaims, 'projectId' | 'ownerId' | 'credential'>,
): Promise<boolean> {
  const project = await deps.projects.findOwned(claims.ownerId, claims.projectId);
  if (!project || project.archived) return false;
  const { credential } = claims;
  if (credential.kind === 'apiKey') {
    const key = await deps.apiKeys.findInProject(claims.projectId, credential.keyId);
    return key !== null && key.ownerId === claims.ownerId && key.isUsableAt(deps.clock.now());
  }
  if (credential.kind === 'signIn') {
    return deps.identity.isSignInActive({ userId: claims.ownerId, sessionId: credential.signInId });
  }
  return true;
}
