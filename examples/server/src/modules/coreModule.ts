import { MetricsRegistry, UuidV7Generator } from '@browserdeck/adapters';
import { SystemClock } from '@browserdeck/domain';
import { ContainerModule } from 'inversify';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { TOKENS as T } from '../tokens.ts';

/** Configuration, logging, metrics, time and ids. */
export function coreModule(config: Config, logger: Logger): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(T.Config).toConstantValue(config);
    bind(T.Logger).toConstantValue(logger);
    bind(T.Clock).toConstantValue(new SystemClock());
    bind(T.Metrics).toConstantValue(new MetricsRegistry());
    bind(T.IdGenerator).toConstantValue(new UuidV7Generator());
  });
}
