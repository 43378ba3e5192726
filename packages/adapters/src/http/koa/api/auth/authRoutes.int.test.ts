import { generateKeyPairSync } from 'node:crypto';
import { createTestApp, describeAuthContract } from '@browserdeck/testing/adapters';
import { decodeJwt } from 'jose';
import { Argon2PasswordHasher } from '../../../../identity/local/Argon2PasswordHasher.ts';
import { InMemoryLocalIdentityStore } from '../../../../identity/local/InMemoryLocalIdentityStore.ts';
import { importJwtKeys } from '../../../../identity/local/importJwtKeys.ts';
import { JwtTokenService } from '../../../../identity/local/JwtTokenService.ts';
import { LocalIdentityProvider } from '../../../../identity/local/LocalIdentityProvider.ts';

const newEd25519Pem = () =>
  generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const keys = await importJwtKeys(newEd25519Pem());
/** Another key, given the same key id: only the signature tells them apart. */
const foreignKeys = { ...(await importJwtKeys(newEd25519Pem())), keyId: keys.keyId };

describeAuthContract('in-memory identity double', {
  setUp: async () => ({ t: await createTestApp(), accessTokenTtlSec: 900 }),
});

describeAuthContract('local (LocalIdentityProvider, Ed25519 tokens, argon2id)', {
  setUp: async () => ({
    t: await createTestApp({
      identity: ({ clock, ids }) =>
        new LocalIdentityProvider({
          store: new InMemoryLocalIdentityStore(),
          clock,
          ids,
          tokens: new JwtTokenService({ keys }),
          // Real argon2id at test cost; the contract's cost is checked in LocalIdentityProvider.test.ts.
          passwords: new Argon2PasswordHasher({ memoryCost: 64, timeCost: 1, parallelism: 1 }),
        }),
    }),
    accessTokenTtlSec: 900,
  }),
  forgeToken: async (world, accessToken) => {
    const claims = decodeJwt(accessToken);
    const { token } = await new JwtTokenService({ keys: foreignKeys }).sign(
      {
        userId: String(claims.sub),
        email: String(claims.email),
        sessionId: String(claims.sid),
        tokenId: String(claims.jti),
      },
      world.t.clock.now(),
      900,
    );
    return token;
  },
});
