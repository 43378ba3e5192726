import type { Caller } from '../access/Caller.ts';
import { findProjectFor } from '../access/findProjectFor.ts';
import type { ProjectRepository } from '../projects/ProjectRepository.ts';
import type { BrowserProvider } from '../providers/BrowserProvider.ts';
import { NotFoundError } from '../shared/DomainError.ts';
import { contextStoreOf } from './contextStoreOf.ts';

/**
 * Deletes a browser context and its profile, also in an archived project (it only frees space);
 * `not_found` for an unknown id or another project's, 409 `context_in_use` while a running session
 * writes to it.
 */
export class DeleteContext {
  private readonly deps: { projects: ProjectRepository; provider: BrowserProvider };

  constructor(deps: { projects: ProjectRepository; provider: BrowserProvider }) {
    this.deps = deps;
  }

  async execute(input: { caller: Caller; projectId: string; contextId: string }): Promise<void> {
    const project = await findProjectFor(this.deps.projects, input.caller, input.projectId, 'developer');
    if (!(await contextStoreOf(this.deps.provider).delete(project.id, input.contextId)))
      throw new NotFoundError('Context');
  }
}
