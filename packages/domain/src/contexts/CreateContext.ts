import type { Caller } from '../access/Caller.ts';
import { projectForWork } from '../access/projectForWork.ts';
import type { ProjectRepository } from '../projects/ProjectRepository.ts';
import type { BrowserProvider } from '../providers/BrowserProvider.ts';
import type { BrowserContextInfo } from './BrowserContextStore.ts';
import { contextStoreOf } from './contextStoreOf.ts';

/** Makes a new, empty browser context in a project, at the configured provider. */
export class CreateContext {
  private readonly deps: { projects: ProjectRepository; provider: BrowserProvider };

  constructor(deps: { projects: ProjectRepository; provider: BrowserProvider }) {
    this.deps = deps;
  }

  /** `project_archived` in an archived project; `unsupported_option` when the provider has no contexts. */
  async execute(input: { caller: Caller; projectId: string }): Promise<BrowserContextInfo> {
    const project = await projectForWork(
      this.deps.projects,
      input.caller,
      input.projectId,
      'developer',
      true,
    );
    return contextStoreOf(this.deps.provider).create(project.id);
  }
}
