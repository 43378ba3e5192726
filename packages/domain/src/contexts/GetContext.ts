import type { Caller } from '../access/Caller.ts';
import { findProjectFor } from '../access/findProjectFor.ts';
import type { ProjectRepository } from '../projects/ProjectRepository.ts';
import type { BrowserProvider } from '../providers/BrowserProvider.ts';
import { NotFoundError } from '../shared/DomainError.ts';
import type { BrowserContextInfo } from './BrowserContextStore.ts';
import { contextStoreOf } from './contextStoreOf.ts';

/** One browser context of a project; `not_found` for an unknown id or another project's. */
export class GetContext {
  private readonly deps: { projects: ProjectRepository; provider: BrowserProvider };

  constructor(deps: { projects: ProjectRepository; provider: BrowserProvider }) {
    this.deps = deps;
  }

  async execute(input: {
    caller: Caller;
    projectId: string;
    contextId: string;
  }): Promise<BrowserContextInfo> {
    const project = await findProjectFor(this.deps.projects, input.caller, input.projectId, 'viewer');
    const context = await contextStoreOf(this.deps.provider).get(project.id, input.contextId);
    if (!context) throw new NotFoundError('Context');
    return context;
  }
}
