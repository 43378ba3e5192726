import { ContainerModule } from 'inversify';
import type { Config } from '../config.ts';
import { TOKENS as T } from '../tokens.ts';

/** The identity provider chosen by `IDENTITY_PROVIDER`. */
export function identityModule(config: Config): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(T.IdentityOption).toConstantValue(
      config.IDENTITY_PROVIDER === 'supabase'
        ? {
            supabase: {
              url: config.SUPABASE_URL ?? '',
              anonKey: config.SUPABASE_ANON_KEY ?? '',
              jwtSecret: config.SUPABASE_JWT_SECRET,
            },
          }
        : {
            local: {
              jwtPrivateKeyPem: config.JWT_PRIVATE_KEY,
              accessTokenTtlSec: config.ACCESS_TOKEN_TTL_SEC,
              refreshTokenTtlSec: config.REFRESH_TOKEN_TTL_SEC,
            },
          },
    );
  });
}
