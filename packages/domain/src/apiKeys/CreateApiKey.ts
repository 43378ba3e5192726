import type { Caller } from '../access/Caller.ts';
import { findProjectFor } from '../access/findProjectFor.ts';
import type { ApiKeyRole } from '../access/projectRoles.ts';
import type { AuditTrail } from '../audit/AuditTrail.ts';
import type { ProjectRepository } from '../projects/ProjectRepository.ts';
import type { Clock } from '../shared/Clock.ts';
import type { IdGenerator } from '../shared/IdGenerator.ts';
import { ApiKey } from './ApiKey.ts';
import type { ApiKeyRepository } from './ApiKeyRepository.ts';
import type { ApiKeySecrets } from './ApiKeySecrets.ts';
import { apiKeyPrefix, checkApiKeyRequest } from './apiKeyRules.ts';

/** What CreateApiKey needs. */
export interface CreateApiKeyDeps {
  projects: ProjectRepository;
  apiKeys: ApiKeyRepository;
  secrets: ApiKeySecrets;
  ids: IdGenerator;
  clock: Clock;
  audit: AuditTrail;
}

/** A new key with its secret, which is shown this once and never again. */
export interface CreatedApiKey {
  apiKey: ApiKey;
  key: string;
}

/** How often a prefix clash (48 random bits) is retried with a fresh key before giving up. */
const PREFIX_ATTEMPTS = 3;

/** Creates a key for one of the user's projects (a key cannot make keys). */
export class CreateApiKey {
  private readonly deps: CreateApiKeyDeps;

  constructor(deps: CreateApiKeyDeps) {
    this.deps = deps;
  }

  async execute(input: {
    caller: Caller;
    projectId: string;
    name: string;
    expiresAt?: Date | null | undefined;
    /** The role the key acts with: `developer` (default) or the narrower `viewer`. */
    role?: ApiKeyRole | undefined;
  }): Promise<CreatedApiKey> {
    const project = await findProjectFor(this.deps.projects, input.caller, input.projectId, 'admin');
    const name = input.name.trim();
    const expiresAt = input.expiresAt ?? null;
    const now = this.deps.clock.now();
    checkApiKeyRequest(name, expiresAt, now);
    for (let attempt = 1; ; attempt++) {
      const key = this.deps.secrets.generate();
      const apiKey = ApiKey.create({
        id: this.deps.ids.next(),
        projectId: project.id,
        ownerId: project.ownerId,
        name,
        role: input.role ?? 'developer',
        prefix: apiKeyPrefix(key),
        digest: this.deps.secrets.digest(key),
        expiresAt,
        now,
      });
      try {
        const change = {
          projectId: project.id,
          action: 'api_key.create',
          target: { type: 'apiKey', id: apiKey.id },
        } as const;
        await this.deps.audit.record(input.caller, change, () => this.deps.apiKeys.add(apiKey));
        return { apiKey, key };
      } catch (error) {
        if (attempt >= PREFIX_ATTEMPTS || (await this.deps.apiKeys.findByPrefix(apiKey.prefix)) === null) {
          throw error;
        }
      }
    }
  }
}
