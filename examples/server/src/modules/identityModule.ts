import {
  Argon2PasswordHasher,
  JwtTokenService,
  LocalIdentityProvider,
  loadOrCreateJwtKeys,
  MikroOrmIssuedRefreshTokenStore,
  MikroOrmRevokedSessionStore,
  SupabaseIdentityProvider,
} from '@browserdeck/adapters';
import { ContainerModule } from 'inversify';
import type { Config } from '../config.ts';
import { TOKENS as T } from '../tokens.ts';

/** The identity provider chosen by `IDENTITY_PROVIDER`. */
export function identityModule(config: Config): ContainerModule {
  return new ContainerModule(({ bind }) => {
    if (config.IDENTITY_PROVIDER === 'supabase') {
      bind(T.IdentityProvider).toResolvedValue(
        (clock, logger, orm) =>
          new SupabaseIdentityProvider({
            url: config.SUPABASE_URL ?? '',
            anonKey: config.SUPABASE_ANON_KEY ?? '',
            jwtSecret: config.SUPABASE_JWT_SECRET,
            // In the service's database, so every instance sharing it honours a sign-out or a
            // detected refresh-token reuse at once (docs/adr/0005).
            revokedSessions: new MikroOrmRevokedSessionStore({ orm }),
            issuedRefreshTokens: new MikroOrmIssuedRefreshTokenStore({ orm }),
            clock,
            logger,
          }),
        [T.Clock, T.Logger, T.Orm],
      );
      return;
    }
    bind(T.IdentityProvider)
      .toResolvedValue(
        async (store, clock, ids, logger) => {
          const loaded = await loadOrCreateJwtKeys({
            dataDir: config.dataDir,
            privateKeyPem: config.JWT_PRIVATE_KEY,
          });
          logger.info(
            { source: loaded.source, file: loaded.file },
            'access tokens are signed with an Ed25519 key',
          );
          const identity = new LocalIdentityProvider({
            store,
            clock,
            ids,
            tokens: new JwtTokenService({ keys: loaded.keys }),
            passwords: new Argon2PasswordHasher(),
            accessTokenTtlSec: config.ACCESS_TOKEN_TTL_SEC,
            refreshTokenTtlSec: config.REFRESH_TOKEN_TTL_SEC,
          });
          await identity.warmUp();
          return identity;
        },
        [T.LocalIdentityStore, T.Clock, T.IdGenerator, T.Logger],
      )
      .inSingletonScope();
  });
}
