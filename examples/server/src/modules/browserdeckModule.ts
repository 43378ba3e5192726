import { createBrowserdeck } from '@browserdeck/adapters';
import { ContainerModule } from 'inversify';
import { TOKENS as T } from '../tokens.ts';

/** Browserdeck composed once by the library from the options the other modules bound. */
export const browserdeckModule = new ContainerModule(({ bind }) => {
  bind(T.Browserdeck).toResolvedValue(
    (options, database, identity, browsers) =>
      createBrowserdeck({ ...options, database, identity, browsers }),
    [T.BrowserdeckOptions, T.DatabaseOption, T.IdentityOption, T.BrowsersOption],
  );
});
