import type { Caller } from '../access/Caller.ts';
import { findProjectFor } from '../access/findProjectFor.ts';
import type { ProjectRepository } from '../projects/ProjectRepository.ts';
import type { BrowserProvider } from '../providers/BrowserProvider.ts';
import { NotFoundError } from '../shared/DomainError.ts';
import type { ExtensionRepository } from './ExtensionRepository.ts';

/** What DeleteExtension needs. */
export interface DeleteExtensionDeps {
  projects: ProjectRepository;
  extensions: ExtensionRepository;
  provider: BrowserProvider;
}

/**
 * Deletes an extension and its zip, also in an archived project (it only frees space), and the
 * provider's copy when there is one: that goes first, so a provider that fails leaves the extension
 * in place and a retry finishes the job. Sessions already running keep what they loaded. `not_found`
 * for an unknown id or another project's.
 */
export class DeleteExtension {
  private readonly deps: DeleteExtensionDeps;

  constructor(deps: DeleteExtensionDeps) {
    this.deps = deps;
  }

  async execute(input: { caller: Caller; projectId: string; extensionId: string }): Promise<void> {
    const { projects, extensions, provider } = this.deps;
    const project = await findProjectFor(projects, input.caller, input.projectId, 'developer');
    const extension = await extensions.findInProject(project.id, input.extensionId);
    if (!extension) throw new NotFoundError('Extension');
    const store = provider.capabilities.extensions;
    if (extension.providerExtensionId !== null && store) {
      await store.delete(extension.providerExtensionId);
    }
    if (!(await extensions.delete(project.id, extension.id))) throw new NotFoundError('Extension');
  }
}
