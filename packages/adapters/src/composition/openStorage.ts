import type { Clock } from '@browserdeck/domain';
import type { SecretBox } from '../persistence/secrets/SecretBox.ts';
import type { DatabaseOption } from './BrowserdeckOptions.ts';
import type { BrowserdeckStorage } from './BrowserdeckStorage.ts';

/** Storage, and how to close what was opened for it (nothing when the host owns the database). */
export interface OpenedStorage {
  storage: BrowserdeckStorage;
  close(): Promise<void>;
}

/**
 * Resolves the `database` option. MikroORM is loaded only when a URL or an ORM is given, so a host
 * with storage of its own never loads a database driver.
 */
export async function openStorage(
  option: DatabaseOption,
  deps: { secrets: SecretBox; clock: Clock },
): Promise<OpenedStorage> {
  if ('storage' in option) return { storage: option.storage, close: async () => {} };
  const mikroOrm = await import('../persistence/mikro-orm/index.ts');
  if ('orm' in option) {
    return { storage: mikroOrm.createMikroOrmStorage({ ...deps, orm: option.orm }), close: async () => {} };
  }
  const orm = await mikroOrm.createMikroOrm({ databaseUrl: option.url });
  try {
    await mikroOrm.migrateToLatest(orm);
  } catch (error) {
    await orm.close(true);
    throw error;
  }
  return { storage: mikroOrm.createMikroOrmStorage({ ...deps, orm }), close: () => orm.close() };
}
