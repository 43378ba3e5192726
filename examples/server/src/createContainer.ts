import { Container } from 'inversify';
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import { adaptersModule } from './modules/adaptersModule.ts';
import { browserdeckModule } from './modules/browserdeckModule.ts';
import { coreModule } from './modules/coreModule.ts';

/** The server's container: configuration, the adapter options, and Browserdeck composed from them. */
export async function createContainer(config: Config, logger: Logger): Promise<Container> {
  const container = new Container({ defaultScope: 'Singleton' });
  await container.load(coreModule(config, logger), adaptersModule(config), browserdeckModule);
  return container;
}
