import { Container } from 'inversify';
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import { browserdeckModule } from './modules/browserdeckModule.ts';
import { browsersModule } from './modules/browsersModule.ts';
import { coreModule } from './modules/coreModule.ts';
import { identityModule } from './modules/identityModule.ts';
import { persistenceModule } from './modules/persistenceModule.ts';

/** The server's container: one module per adapter family, and Browserdeck composed from them. */
export async function createContainer(config: Config, logger: Logger): Promise<Container> {
  const container = new Container({ defaultScope: 'Singleton' });
  await container.load(
    coreModule(config, logger),
    persistenceModule(config),
    identityModule(config),
    browsersModule(config),
    browserdeckModule,
  );
  return container;
}
