import { ContainerModule } from 'inversify';
import { browsersOption, databaseOption, identityOption } from '../adapterOptions.ts';
import type { Config } from '../config.ts';
import { TOKENS as T } from '../tokens.ts';

/**
 * One binding per adapter family, each the option `createBrowserdeck` takes for it. A test or a
 * fork swaps an adapter by rebinding one token, e.g. `IdentityOption` to `{ provider }`.
 */
export function adaptersModule(config: Config): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(T.DatabaseOption).toConstantValue(databaseOption(config));
    bind(T.IdentityOption).toConstantValue(identityOption(config));
    bind(T.BrowsersOption).toConstantValue(browsersOption(config));
  });
}
