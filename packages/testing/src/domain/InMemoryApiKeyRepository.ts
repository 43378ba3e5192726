import type { ApiKey, ApiKeyRepository } from '@browserdeck/domain';
import { writable } from '@browserdeck/domain';
import { cloneEntity } from './cloneEntity.ts';

/** API keys in a Map; stores copies. */
export class InMemoryApiKeyRepository implements ApiKeyRepository {
  private readonly keys = new Map<string, ApiKey>();

  async add(key: ApiKey): Promise<void> {
    for (const other of this.keys.values()) {
      if (other.prefix === key.prefix) throw new Error(`An API key with prefix ${key.prefix} exists.`);
    }
    this.keys.set(key.id, cloneEntity(key));
  }

  async findByPrefix(prefix: string): Promise<ApiKey | null> {
    const key = [...this.keys.values()].find((k) => k.prefix === prefix);
    return key ? cloneEntity(key) : null;
  }

  async listInProject(projectId: string): Promise<ApiKey[]> {
    return [...this.keys.values()]
      .filter((k) => k.projectId === projectId && k.revokedAt === null)
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1))
      .map(cloneEntity);
  }

  async findInProject(projectId: string, keyId: string): Promise<ApiKey | null> {
    const key = this.keys.get(keyId);
    return key && key.projectId === projectId ? cloneEntity(key) : null;
  }

  async saveRevocation(key: ApiKey): Promise<void> {
    const stored = this.keys.get(key.id);
    if (stored && stored.revokedAt === null) writable(stored).revokedAt = key.revokedAt;
  }

  async stampUsage(keyId: string, at: Date, notBefore: Date): Promise<void> {
    const stored = this.keys.get(keyId);
    if (stored && (stored.lastUsedAt === null || stored.lastUsedAt.getTime() < notBefore.getTime())) {
      writable(stored).lastUsedAt = at;
    }
  }
}
