import type { Extension, ExtensionRepository } from '@browserdeck/domain';
import { cloneEntity } from './cloneEntity.ts';

/** Extensions and their zips in a Map; stores copies of both. */
export class InMemoryExtensionRepository implements ExtensionRepository {
  private readonly stored = new Map<string, { extension: Extension; archive: Uint8Array }>();

  async add(extension: Extension, archive: Uint8Array): Promise<void> {
    if (this.stored.has(extension.id)) throw new Error(`An extension with id ${extension.id} exists.`);
    this.stored.set(extension.id, { extension: cloneEntity(extension), archive: new Uint8Array(archive) });
  }

  async listInProject(projectId: string): Promise<Extension[]> {
    return [...this.stored.values()]
      .map((s) => s.extension)
      .filter((e) => e.projectId === projectId)
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1))
      .map(cloneEntity);
  }

  async countInProject(projectId: string): Promise<number> {
    return [...this.stored.values()].filter((s) => s.extension.projectId === projectId).length;
  }

  async findInProject(projectId: string, extensionId: string): Promise<Extension | null> {
    const found = this.inProject(projectId, extensionId);
    return found ? cloneEntity(found.extension) : null;
  }

  async readArchive(projectId: string, extensionId: string): Promise<Uint8Array | null> {
    const found = this.inProject(projectId, extensionId);
    return found ? new Uint8Array(found.archive) : null;
  }

  async saveProviderExtensionId(extension: Extension): Promise<void> {
    const found = this.inProject(extension.projectId, extension.id);
    if (found && extension.providerExtensionId !== null)
      found.extension.storedAtProvider(extension.providerExtensionId);
  }

  async delete(projectId: string, extensionId: string): Promise<boolean> {
    return this.inProject(projectId, extensionId) !== undefined && this.stored.delete(extensionId);
  }

  private inProject(projectId: string, extensionId: string) {
    const found = this.stored.get(extensionId);
    return found && found.extension.projectId === projectId ? found : undefined;
  }
}
