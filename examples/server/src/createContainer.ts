import { Container } from 'inversify';
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import { browsersModule } from './modules/browsersModule.ts';
import { coreModule } from './modules/coreModule.ts';
import { httpModule } from './modules/httpModule.ts';
import { identityModule } from './modules/identityModule.ts';
import { persistenceModule } from './modules/persistenceModule.ts';
import { sessionUseCasesModule, useCasesModule } from './modules/useCasesModule.ts';

/** The server's container: one module per adapter family, the use cases, and the HTTP app. */
export async function createContainer(config: Config, logger: Logger): Promise<Container> {
  const container = new Container({ defaultScope: 'Singleton' });
  await container.load(
    coreModule(config, logger),
    persistenceModule(config),
    identityModule(config),
    browsersModule(config),
    useCasesModule,
    sessionUseCasesModule,
    httpModule(config),
  );
  return container;
}
