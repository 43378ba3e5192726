import type { Caller } from '../access/Caller.ts';
import { findProjectFor } from '../access/findProjectFor.ts';
import type { ProjectRepository } from '../projects/ProjectRepository.ts';
import { NotFoundError } from '../shared/DomainError.ts';
import type { Extension } from './Extension.ts';
import type { ExtensionRepository } from './ExtensionRepository.ts';

/** What GetExtension needs. */
export interface GetExtensionDeps {
  projects: ProjectRepository;
  extensions: ExtensionRepository;
}

/** One extension of the caller's project; `not_found` for an unknown id or another project's. */
export class GetExtension {
  private readonly deps: GetExtensionDeps;

  constructor(deps: GetExtensionDeps) {
    this.deps = deps;
  }

  async execute(input: { caller: Caller; projectId: string; extensionId: string }): Promise<Extension> {
    const project = await findProjectFor(this.deps.projects, input.caller, input.projectId, 'viewer');
    const extension = await this.deps.extensions.findInProject(project.id, input.extensionId);
    if (!extension) throw new NotFoundError('Extension');
    return extension;
  }
}
