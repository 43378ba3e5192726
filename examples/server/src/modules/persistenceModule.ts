import { ContainerModule } from 'inversify';
import type { Config } from '../config.ts';
import { TOKENS as T } from '../tokens.ts';

/** The database from `DATABASE_URL` (SQLite in `DATA_DIR` by default), opened and migrated by the composition. */
export function persistenceModule(config: Config): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(T.DatabaseOption).toConstantValue({ url: config.databaseUrl });
  });
}
