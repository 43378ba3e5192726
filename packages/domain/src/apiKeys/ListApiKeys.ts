import type { Caller } from '../access/Caller.ts';
import { findProjectFor } from '../access/findProjectFor.ts';
import type { ProjectRepository } from '../projects/ProjectRepository.ts';
import type { ApiKey } from './ApiKey.ts';
import type { ApiKeyRepository } from './ApiKeyRepository.ts';

/** What ListApiKeys needs. */
export interface ListApiKeysDeps {
  projects: ProjectRepository;
  apiKeys: ApiKeyRepository;
}

/** The project's keys that are not revoked, newest first, without their secrets. */
export class ListApiKeys {
  private readonly deps: ListApiKeysDeps;

  constructor(deps: ListApiKeysDeps) {
    this.deps = deps;
  }

  async execute(input: { caller: Caller; projectId: string }): Promise<ApiKey[]> {
    const project = await findProjectFor(this.deps.projects, input.caller, input.projectId, 'admin');
    return this.deps.apiKeys.listInProject(project.id);
  }
}
