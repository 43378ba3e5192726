import {
  createMikroOrm,
  MikroOrmLocalIdentityStore,
  MikroOrmProjectRepository,
  MikroOrmUserRepository,
  migrateToLatest,
} from '@browserdeck/adapters';
import { ContainerModule } from 'inversify';
import type { Config } from '../config.ts';
import { TOKENS as T } from '../tokens.ts';

/** MikroORM on SQLite or PostgreSQL, migrated to the latest schema, and the repositories on it. */
export function persistenceModule(config: Config): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(T.Orm)
      .toResolvedValue(async () => {
        const orm = await createMikroOrm({ databaseUrl: config.databaseUrl });
        await migrateToLatest(orm);
        return orm;
      })
      .inSingletonScope();
    bind(T.UserRepository).toResolvedValue((orm) => new MikroOrmUserRepository({ orm }), [T.Orm]);
    bind(T.ProjectRepository).toResolvedValue((orm) => new MikroOrmProjectRepository({ orm }), [T.Orm]);
    bind(T.LocalIdentityStore).toResolvedValue((orm) => new MikroOrmLocalIdentityStore({ orm }), [T.Orm]);
  });
}
