import type { Clock } from '@browserdeck/domain';
import type { SecretBox } from '../persistence/secrets/SecretBox.ts';
import type { PgBossConnection } from '../runs/queue/PgBossRunQueue.ts';
import type { DatabaseOption } from './BrowserdeckOptions.ts';
import type { BrowserdeckStorage } from './BrowserdeckStorage.ts';
import type { Part } from './lifecycle/Part.ts';

/**
 * Storage, as the part that closes what was opened for it, last (nothing when the host owns the
 * database).
 */
export interface OpenedStorage extends Part {
  storage: BrowserdeckStorage;
  /** How the run queue reaches the database when it is PostgreSQL (the queue is shared there). */
  postgres?: PgBossConnection | undefined;
}

/**
 * Resolves the `database` option. MikroORM is loaded only when a URL or an ORM is given, so a host
 * with storage of its own never loads a database driver. On PostgreSQL it also says how the run
 * queue connects (the URL, or the ORM's resolved connection).
 */
export async function openStorage(
  option: DatabaseOption,
  deps: { secrets: SecretBox; clock: Clock },
): Promise<OpenedStorage> {
  const part = { name: 'storage', phase: 'storage' } as const;
  if ('storage' in option) return { ...part, storage: option.storage, stop: async () => {} };
  const mikroOrm = await import('../persistence/mikro-orm/index.ts');
  if ('orm' in option) {
    const { orm } = option;
    return {
      ...part,
      storage: mikroOrm.createMikroOrmStorage({ ...deps, orm }),
      stop: async () => {},
      postgres:
        mikroOrm.dialectOf(orm) === 'postgresql' ? orm.em.getConnection().getConnectionOptions() : undefined,
    };
  }
  const orm = await mikroOrm.createMikroOrm({ databaseUrl: option.url });
  try {
    await mikroOrm.migrateToLatest(orm);
  } catch (error) {
    await orm.close(true);
    throw error;
  }
  const location = mikroOrm.parseDatabaseUrl(option.url);
  const postgres = location.dialect === 'postgresql' ? { connectionString: location.url } : undefined;
  return {
    ...part,
    storage: mikroOrm.createMikroOrmStorage({ ...deps, orm }),
    stop: () => orm.close(),
    postgres,
  };
}
