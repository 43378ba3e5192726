import { type ApiKeyCaller, type Caller, signedIn } from '../access/Caller.ts';
import type { ApiKeyRepository } from '../apiKeys/ApiKeyRepository.ts';
import type { ApiKeySecrets } from '../apiKeys/ApiKeySecrets.ts';
import {
  API_KEY_MARKER,
  API_KEY_PATTERN,
  API_KEY_USAGE_STAMP_INTERVAL_MS,
  apiKeyPrefix,
} from '../apiKeys/apiKeyRules.ts';
import type { ProjectRepository } from '../projects/ProjectRepository.ts';
import type { Clock } from '../shared/Clock.ts';
import { AuthError, ForbiddenError, ForbiddenForApiKeyError } from '../shared/DomainError.ts';
import { type Logger, silentLogger } from '../shared/Logger.ts';
import type { IdentityProvider } from './IdentityProvider.ts';
import { accountDisabled, refuseDisabledAccount } from './refuseDisabledAccount.ts';
import type { UserRepository } from './UserRepository.ts';

/** What Authenticate needs. */
export interface AuthenticateDeps {
  identity: IdentityProvider;
  apiKeys: ApiKeyRepository;
  secrets: ApiKeySecrets;
  projects: ProjectRepository;
  users: UserRepository;
  clock: Clock;
  logger?: Logger | undefined;
}

const UNKNOWN_KEY = 'The API key is unknown, expired or revoked.';

/**
 * Turns a bearer credential into the caller it speaks for, or throws `unauthorized`: a project API
 * key (`bdk_…`, http-api.md §12) or a user's access token. Keys are read from the store on every
 * request, so a revocation holds at once on every instance.
 */
export class Authenticate {
  private readonly deps: AuthenticateDeps;

  constructor(deps: AuthenticateDeps) {
    this.deps = deps;
  }

  async execute(input: { accessToken: string | undefined }): Promise<Caller> {
    const token = input.accessToken;
    if (!token) throw new AuthError('unauthorized', 'A bearer access token or API key is required.');
    if (token.startsWith(API_KEY_MARKER)) return this.apiKey(token);
    const principal = await this.deps.identity.authenticate(token);
    // A disabled account's tokens end at once (SPEC §17), whichever provider issued them; read with
    // the sign-in when the provider did, so the hot path makes no query more.
    if (principal.accountDisabled === true) throw accountDisabled();
    if (principal.accountDisabled === undefined)
      await refuseDisabledAccount(this.deps.users, principal.userId);
    return signedIn(principal);
  }

  private async apiKey(key: string): Promise<ApiKeyCaller> {
    if (!API_KEY_PATTERN.test(key)) throw new AuthError('unauthorized', UNKNOWN_KEY);
    const { apiKeys, secrets, clock } = this.deps;
    const found = await apiKeys.findByPrefix(apiKeyPrefix(key));
    const now = clock.now();
    if (!found || !secrets.matches(key, found.digest) || !found.isUsableAt(now)) {
      throw new AuthError('unauthorized', UNKNOWN_KEY);
    }
    const access = await this.deps.projects.findAccess(found.projectId, null);
    if (!access) throw new AuthError('unauthorized', UNKNOWN_KEY);
    // A disabled account's keys stop with it (SPEC §17), on every instance: the same read says so.
    if (access.ownerDisabled) {
      throw new ForbiddenError(
        'account_disabled',
        'The key’s project belongs to an account an operator disabled.',
      );
    }
    const { project } = access;
    if (project.archived) {
      throw new ForbiddenForApiKeyError('The key’s project is archived; keys act only in active projects.');
    }
    if (found.needsUsageStamp(now)) {
      // Best effort: a failed stamp must not refuse a valid key.
      const notBefore = new Date(now.getTime() - API_KEY_USAGE_STAMP_INTERVAL_MS);
      await apiKeys.stampUsage(found.id, now, notBefore).catch((error: unknown) => {
        (this.deps.logger ?? silentLogger).warn(
          { keyId: found.id, error: String(error) },
          'could not stamp API key use',
        );
      });
    }
    return {
      kind: 'apiKey',
      keyId: found.id,
      keyName: found.name,
      role: found.role,
      projectId: found.projectId,
    };
  }
}
