import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { type CryptoKey, calculateJwkThumbprint, exportJWK, importPKCS8, importSPKI } from 'jose';

/** The one JWS algorithm access tokens are signed and verified with (Ed25519). */
export const JWT_ALGORITHM = 'EdDSA';

/** An imported Ed25519 signing key pair, ready for every request without further parsing. */
export interface JwtKeys {
  readonly algorithm: typeof JWT_ALGORITHM;
  /** RFC 7638 thumbprint of the public key; sent as the `kid` header. */
  readonly keyId: string;
  readonly privateKey: CryptoKey;
  readonly publicKey: CryptoKey;
  /** The same public key for `node:crypto`, which verifies synchronously. */
  readonly publicKeyObject: KeyObject;
  /** The public key as SPKI PEM, for anyone who wants to verify tokens elsewhere. */
  readonly publicKeyPem: string;
}

/**
 * Imports an Ed25519 private key (PKCS#8 PEM; `\n` escapes, as environment variables often carry
 * them, are accepted) and derives its public key. Throws when the text is not such a key; the
 * message never contains the key.
 */
export async function importJwtKeys(privateKeyPem: string): Promise<JwtKeys> {
  let privateKeyObject: KeyObject;
  try {
    privateKeyObject = createPrivateKey({ key: privateKeyPem.replace(/\\n/g, '\n'), format: 'pem' });
  } catch {
    throw new Error('The JWT signing key is not a readable PEM private key.');
  }
  if (privateKeyObject.asymmetricKeyType !== 'ed25519') {
    throw new Error(
      `The JWT signing key must be an Ed25519 key, not ${privateKeyObject.asymmetricKeyType ?? 'unknown'}.`,
    );
  }
  const pkcs8 = privateKeyObject.export({ type: 'pkcs8', format: 'pem' }).toString();
  const publicKeyObject = createPublicKey(privateKeyObject);
  const publicKeyPem = publicKeyObject.export({ type: 'spki', format: 'pem' }).toString();
  const [privateKey, publicKey] = await Promise.all([
    importPKCS8(pkcs8, JWT_ALGORITHM),
    importSPKI(publicKeyPem, JWT_ALGORITHM, { extractable: true }),
  ]);
  const keyId = await calculateJwkThumbprint(await exportJWK(publicKey));
  return { algorithm: JWT_ALGORITHM, keyId, privateKey, publicKey, publicKeyObject, publicKeyPem };
}
