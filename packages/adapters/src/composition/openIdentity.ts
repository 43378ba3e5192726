import type { Clock, IdentityProvider, IdGenerator } from '@browserdeck/domain';
import type { Logger } from 'pino';
import type { IdentityOption } from './BrowserdeckOptions.ts';
import type { BrowserdeckStorage } from './BrowserdeckStorage.ts';

/** What the identity providers are built from. */
export interface IdentityContext {
  storage: BrowserdeckStorage;
  dataDir: string;
  clock: Clock;
  ids: IdGenerator;
  logger: Logger;
}

/**
 * Resolves the `identity` option, loading only the chosen provider's module: local (argon2id,
 * Ed25519 tokens from the data folder) or Supabase Auth, each over the storage's stores.
 */
export async function openIdentity(
  option: IdentityOption,
  context: IdentityContext,
): Promise<IdentityProvider> {
  if ('provider' in option) return option.provider;
  const { storage, clock, logger } = context;
  if ('supabase' in option) {
    if (!storage.supabase) {
      throw new Error(
        'identity: { supabase } keeps sign-outs in the database: give `database` a URL or an ORM, or pass identity: { provider }.',
      );
    }
    const { SupabaseIdentityProvider } = await import('../identity/supabase/SupabaseIdentityProvider.ts');
    return new SupabaseIdentityProvider({ ...option.supabase, ...storage.supabase, clock, logger });
  }
  if (!storage.localIdentity) {
    throw new Error(
      'identity: { local } keeps credentials in the database: give `database` a URL or an ORM, or pass identity: { provider }.',
    );
  }
  const local = await import('../identity/local/index.ts');
  const loaded = await local.loadOrCreateJwtKeys({
    dataDir: context.dataDir,
    privateKeyPem: option.local.jwtPrivateKeyPem,
  });
  logger.info({ source: loaded.source, file: loaded.file }, 'access tokens are signed with an Ed25519 key');
  const identity = new local.LocalIdentityProvider({
    store: storage.localIdentity,
    clock,
    ids: context.ids,
    tokens: new local.JwtTokenService({ keys: loaded.keys }),
    passwords: new local.Argon2PasswordHasher(),
    accessTokenTtlSec: option.local.accessTokenTtlSec,
    refreshTokenTtlSec: option.local.refreshTokenTtlSec,
  });
  await identity.warmUp();
  return identity;
}
