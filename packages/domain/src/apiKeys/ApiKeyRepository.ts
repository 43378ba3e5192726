import type { ApiKey } from './ApiKey.ts';

/**
 * Where project API keys are kept. Reads go to the store every time: a revoked key must be refused at
 * once on every instance, so nothing may cache a key past its revocation.
 */
export interface ApiKeyRepository {
  /** Stores a new key; the prefix is unique (an index), and a clash throws. */
  add(key: ApiKey): Promise<void>;
  /** The key with this clear prefix, revoked or not; null when there is none. */
  findByPrefix(prefix: string): Promise<ApiKey | null>;
  /** The project's keys that are not revoked, newest first. */
  listInProject(projectId: string): Promise<ApiKey[]>;
  /** One key of the project, revoked or not; null when there is none. */
  findInProject(projectId: string, keyId: string): Promise<ApiKey | null>;
  /** Stores `revokedAt` of a key revoked with `ApiKey.revoke`. */
  saveRevocation(key: ApiKey): Promise<void>;
  /**
   * Sets `lastUsedAt` to `at` unless it is already at or after `notBefore`: a conditional write, so
   * that of many instances seeing the same key within a minute at most one writes.
   */
  stampUsage(keyId: string, at: Date, notBefore: Date): Promise<void>;
}
