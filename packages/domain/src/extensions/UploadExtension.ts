import type { Caller } from '../access/Caller.ts';
import { projectForWork } from '../access/projectForWork.ts';
import type { ProjectRepository } from '../projects/ProjectRepository.ts';
import type { BrowserProvider } from '../providers/BrowserProvider.ts';
import type { Clock } from '../shared/Clock.ts';
import { ConflictError } from '../shared/DomainError.ts';
import type { IdGenerator } from '../shared/IdGenerator.ts';
import { type Logger, silentLogger } from '../shared/Logger.ts';
import { UploadTooLargeError } from '../shared/UploadTooLargeError.ts';
import { Extension } from './Extension.ts';
import type { ExtensionArchiveInspector } from './ExtensionArchiveInspector.ts';
import type { ExtensionRepository } from './ExtensionRepository.ts';
import {
  EXTENSION_ARCHIVE_MAX_BYTES,
  EXTENSIONS_PER_PROJECT_MAX,
  extensionFileName,
} from './extensionRules.ts';

/** What UploadExtension needs. */
export interface UploadExtensionDeps {
  projects: ProjectRepository;
  extensions: ExtensionRepository;
  inspector: ExtensionArchiveInspector;
  provider: BrowserProvider;
  ids: IdGenerator;
  clock: Clock;
  logger?: Logger | undefined;
}

/**
 * Stores an extension zip in a project, once checked (`ExtensionArchiveInspector`): 413
 * `payload_too_large` past `EXTENSION_ARCHIVE_MAX_BYTES`, 400 `extension_invalid` for a zip Chromium
 * would not load or that could escape its folder, 409 `project_archived` in an archived project,
 * 409 `extension_limit_reached` once the project holds `EXTENSIONS_PER_PROJECT_MAX` (counted before
 * the insert, so uploads racing each other may pass it by a few).
 * A provider with an extension store of its own (Browserbase) gets it too, before it is stored here.
 */
export class UploadExtension {
  private readonly deps: UploadExtensionDeps;

  constructor(deps: UploadExtensionDeps) {
    this.deps = deps;
  }

  async execute(input: {
    caller: Caller;
    projectId: string;
    fileName?: string | null | undefined;
    archive: Uint8Array;
  }): Promise<Extension> {
    const { projects, extensions, inspector, provider } = this.deps;
    const project = await projectForWork(projects, input.caller, input.projectId, 'developer', true);
    if (input.archive.byteLength > EXTENSION_ARCHIVE_MAX_BYTES) {
      throw new UploadTooLargeError(
        EXTENSION_ARCHIVE_MAX_BYTES,
        `The extension zip is larger than the limit of ${EXTENSION_ARCHIVE_MAX_BYTES} bytes.`,
      );
    }
    // Before the zip is read or the provider gets a copy: a full project takes nothing.
    if ((await extensions.countInProject(project.id)) >= EXTENSIONS_PER_PROJECT_MAX) {
      throw new ConflictError(
        'extension_limit_reached',
        `This project has ${EXTENSIONS_PER_PROJECT_MAX} extensions, the most it may hold; delete one first.`,
      );
    }
    const summary = await inspector.inspect(input.archive);
    const fileName = extensionFileName(input.fileName);
    const store = provider.capabilities.extensions;
    const providerExtensionId = store ? await store.upload(input.archive, fileName) : null;
    const extension = Extension.create({
      id: this.deps.ids.next(),
      projectId: project.id,
      name: summary.name,
      fileName,
      size: input.archive.byteLength,
      providerExtensionId,
      now: this.deps.clock.now(),
    });
    try {
      await extensions.add(extension, input.archive);
    } catch (error) {
      // Not stored here: the provider's copy would be out of anyone's reach, so it goes too.
      if (providerExtensionId !== null && store) {
        await store.delete(providerExtensionId).catch((deleteError: unknown) => {
          (this.deps.logger ?? silentLogger).error(
            { providerExtensionId, error: String(deleteError) },
            'could not delete a provider extension whose upload failed to store',
          );
        });
      }
      throw error;
    }
    return extension;
  }
}
