import type { Caller } from '../access/Caller.ts';
import { findProjectFor } from '../access/findProjectFor.ts';
import type { AuditTrail } from '../audit/AuditTrail.ts';
import type { ProjectRepository } from '../projects/ProjectRepository.ts';
import type { Clock } from '../shared/Clock.ts';
import { NotFoundError } from '../shared/DomainError.ts';
import type { ApiKeyRepository } from './ApiKeyRepository.ts';

/** What RevokeApiKey needs. */
export interface RevokeApiKeyDeps {
  projects: ProjectRepository;
  apiKeys: ApiKeyRepository;
  clock: Clock;
  audit: AuditTrail;
}

/**
 * Revokes a key: from the next request on, on every instance, it is refused. Idempotent: revoking a
 * revoked key changes nothing; a key of another project is `not_found`.
 */
export class RevokeApiKey {
  private readonly deps: RevokeApiKeyDeps;

  constructor(deps: RevokeApiKeyDeps) {
    this.deps = deps;
  }

  async execute(input: { caller: Caller; projectId: string; keyId: string }): Promise<void> {
    const project = await findProjectFor(this.deps.projects, input.caller, input.projectId, 'admin');
    const apiKey = await this.deps.apiKeys.findInProject(project.id, input.keyId);
    if (!apiKey) throw new NotFoundError('API key');
    if (apiKey.revokedAt !== null) return;
    apiKey.revoke(this.deps.clock.now());
    const change = {
      projectId: project.id,
      action: 'api_key.revoke',
      target: { type: 'apiKey', id: apiKey.id },
    } as const;
    await this.deps.audit.record(input.caller, change, () => this.deps.apiKeys.saveRevocation(apiKey));
  }
}
