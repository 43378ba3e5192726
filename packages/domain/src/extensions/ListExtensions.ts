import type { Caller } from '../access/Caller.ts';
import { findProjectFor } from '../access/findProjectFor.ts';
import type { ProjectRepository } from '../projects/ProjectRepository.ts';
import type { Extension } from './Extension.ts';
import type { ExtensionRepository } from './ExtensionRepository.ts';

/** What ListExtensions needs. */
export interface ListExtensionsDeps {
  projects: ProjectRepository;
  extensions: ExtensionRepository;
}

/** The project's extensions, newest first (also in an archived project). */
export class ListExtensions {
  private readonly deps: ListExtensionsDeps;

  constructor(deps: ListExtensionsDeps) {
    this.deps = deps;
  }

  async execute(input: { caller: Caller; projectId: string }): Promise<Extension[]> {
    const project = await findProjectFor(this.deps.projects, input.caller, input.projectId, 'viewer');
    return this.deps.extensions.listInProject(project.id);
  }
}
