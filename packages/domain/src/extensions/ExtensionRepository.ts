import type { Extension } from './Extension.ts';

/** Where a project's extensions are kept: each record and its zip, together. */
export interface ExtensionRepository {
  /** Stores a new extension with its zip. */
  add(extension: Extension, archive: Uint8Array): Promise<void>;
  /** The project's extensions, newest first, without their zips. */
  listInProject(projectId: string): Promise<Extension[]>;
  /** How many extensions the project has (one indexed count, no zips read). */
  countInProject(projectId: string): Promise<number>;
  /** One extension of the project; null when there is none (also for an id that is no id of ours). */
  findInProject(projectId: string, extensionId: string): Promise<Extension | null>;
  /** The zip of one extension of the project, as uploaded; null when there is none. */
  readArchive(projectId: string, extensionId: string): Promise<Uint8Array | null>;
  /** Stores `providerExtensionId` of an extension changed by `Extension.storedAtProvider`. */
  saveProviderExtensionId(extension: Extension): Promise<void>;
  /** Removes one extension of the project and its zip; false when there was none. */
  delete(projectId: string, extensionId: string): Promise<boolean>;
}
