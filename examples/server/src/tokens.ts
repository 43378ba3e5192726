import type {
  Browserdeck,
  BrowserdeckOptions,
  BrowsersOption,
  DatabaseOption,
  IdentityOption,
} from '@browserdeck/adapters';
import type { ServiceIdentifier } from 'inversify';
import type { Logger } from 'pino';
import type { Config } from './config.ts';

/** A typed, process-wide token: `Symbol.for` so two copies of this module agree. */
function token<T>(name: string): ServiceIdentifier<T> {
  return Symbol.for(`@browserdeck/${name}`);
}

/**
 * What the server's container holds: the configuration, one option per adapter family (rebind one
 * to swap the adapter, e.g. `IdentityOption` to `{ provider }`), and the composed Browserdeck.
 */
export const TOKENS = {
  Config: token<Config>('Config'),
  Logger: token<Logger>('Logger'),
  DatabaseOption: token<DatabaseOption>('DatabaseOption'),
  IdentityOption: token<IdentityOption>('IdentityOption'),
  BrowsersOption: token<BrowsersOption>('BrowsersOption'),
  /** Data folder, keys, public URL, HTTP settings, rate limits: everything but the adapters. */
  BrowserdeckOptions: token<BrowserdeckOptions>('BrowserdeckOptions'),
  Browserdeck: token<Browserdeck>('Browserdeck'),
} as const;
