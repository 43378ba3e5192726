import {
  createMikroOrm,
  loadOrCreateSecretKey,
  MikroOrmAgentRepository,
  MikroOrmIdempotencyStore,
  MikroOrmLocalIdentityStore,
  MikroOrmProjectRepository,
  MikroOrmRateLimiter,
  MikroOrmSessionRepository,
  MikroOrmUserRepository,
  migrateToLatest,
  SecretBox,
} from '@browserdeck/adapters';
import { ContainerModule } from 'inversify';
import type { Config } from '../config.ts';
import { TOKENS as T } from '../tokens.ts';

/**
 * MikroORM on SQLite or PostgreSQL, migrated to the latest schema, the secret box, the repositories
 * and the rate limiter (its windows in the database, so several instances share one limit).
 */
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
    bind(T.SecretBox)
      .toResolvedValue(
        async (logger) => {
          const loaded = await loadOrCreateSecretKey({
            dataDir: config.dataDir,
            secretKey: config.SECRET_KEY,
          });
          logger.info(
            { source: loaded.source, file: loaded.file },
            'secrets at rest are sealed with AES-256-GCM',
          );
          return new SecretBox(loaded.key);
        },
        [T.Logger],
      )
      .inSingletonScope();
    bind(T.SessionRepository).toResolvedValue(
      (orm, secrets) => new MikroOrmSessionRepository({ orm, secrets }),
      [T.Orm, T.SecretBox],
    );
    bind(T.AgentRepository).toResolvedValue(
      (orm, secrets) => new MikroOrmAgentRepository({ orm, secrets }),
      [T.Orm, T.SecretBox],
    );
    bind(T.IdempotencyStore).toResolvedValue(
      (orm, secrets) => new MikroOrmIdempotencyStore({ orm, secrets }),
      [T.Orm, T.SecretBox],
    );
    bind(T.LocalIdentityStore).toResolvedValue((orm) => new MikroOrmLocalIdentityStore({ orm }), [T.Orm]);
    bind(T.RateLimiter).toResolvedValue(
      (orm, clock, secrets) => new MikroOrmRateLimiter({ orm, clock, secrets }),
      [T.Orm, T.Clock, T.SecretBox],
    );
  });
}
