import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  createSecretKey,
  hkdfSync,
  type KeyObject,
  randomBytes,
} from 'node:crypto';
import type { CursorSigner } from '@browserdeck/domain';
import { SecretBoxError } from './SecretBoxError.ts';

/** Length of a `SecretBox` key, in bytes (AES-256). */
export const SECRET_KEY_BYTES = 32;

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const B64URL = /^[A-Za-z0-9_-]*$/;

/**
 * Encrypts secrets at rest (session `env`, agent `envVars`) with AES-256-GCM.
 *
 * A sealed value is `v1.<key id>.<iv>.<tag>.<ciphertext>`, each part base64url: a random 12-byte
 * IV per value (equal plaintexts seal differently), the 16-byte GCM tag, and an 8-character key id
 * (a digest of the key, not the key) so that a value sealed under another key is reported as such
 * instead of as damage. The `v1.<key id>` header is authenticated too. The AES key and the digest
 * key are derived from the master key with HKDF-SHA256, so neither is the configured key itself.
 */
export class SecretBox {
  /** Identifies the key in sealed values (8 base64url characters). */
  readonly keyId: string;
  // KeyObjects, imported once: handing a Buffer key to createCipheriv / createDecipheriv imports it
  // again on every call, which cost ~5× the decryption itself (20 opens per listed page of sessions).
  private readonly encryptionKey: KeyObject;
  private readonly digestKey: KeyObject;

  /** `key`: 32 bytes, e.g. from `loadOrCreateSecretKey`. */
  constructor(key: Uint8Array) {
    if (key.byteLength !== SECRET_KEY_BYTES) {
      throw new RangeError(`A SecretBox key is ${SECRET_KEY_BYTES} bytes, not ${key.byteLength}.`);
    }
    this.encryptionKey = createSecretKey(subkey(key, 'browserdeck/secret-box/aes-256-gcm/v1'));
    this.digestKey = createSecretKey(subkey(key, 'browserdeck/secret-box/digest/v1'));
    this.keyId = subkey(key, 'browserdeck/secret-box/key-id/v1').subarray(0, 6).toString('base64url');
  }

  /** Encrypts `plaintext` (UTF-8) with a fresh random IV. */
  seal(plaintext: string): string {
    const iv = randomBytes(IV_BYTES);
    const header = `${VERSION}.${this.keyId}`;
    const cipher = createCipheriv('aes-256-gcm', this.encryptionKey, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(header, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return [
      header,
      iv.toString('base64url'),
      tag.toString('base64url'),
      ciphertext.toString('base64url'),
    ].join('.');
  }

  /** Decrypts what `seal` produced. Throws `SecretBoxError` for another key's or a damaged value. */
  open(sealed: string): string {
    const parts = sealed.split('.');
    const [version, keyId, iv, tag, ciphertext] = parts;
    if (
      parts.length !== 5 ||
      version !== VERSION ||
      !parts.every((part) => B64URL.test(part)) ||
      iv === undefined ||
      tag === undefined ||
      ciphertext === undefined
    ) {
      throw new SecretBoxError('A stored secret is not in the expected "v1" sealed format.');
    }
    if (keyId !== this.keyId) {
      throw new SecretBoxError(
        `A stored secret was encrypted with another key (key id ${keyId}; the configured SECRET_KEY ` +
          `has key id ${this.keyId}). Configure the SECRET_KEY the data was written with.`,
      );
    }
    const ivBytes = Buffer.from(iv, 'base64url');
    const tagBytes = Buffer.from(tag, 'base64url');
    if (ivBytes.length !== IV_BYTES || tagBytes.length !== TAG_BYTES) {
      throw new SecretBoxError('A stored secret is damaged (bad IV or tag length).');
    }
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.encryptionKey, ivBytes, {
        authTagLength: TAG_BYTES,
      });
      decipher.setAAD(Buffer.from(`${version}.${keyId}`, 'utf8'));
      decipher.setAuthTag(tagBytes);
      return Buffer.concat([
        decipher.update(Buffer.from(ciphertext, 'base64url')),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      throw new SecretBoxError('A stored secret failed authentication: it is damaged or was tampered with.');
    }
  }

  /**
   * A keyed digest (HMAC-SHA256, hex) of `value`: equal inputs give equal digests, and without the
   * key a digest cannot be checked against guesses. For values compared but never read back.
   */
  digest(value: string): string {
    return createHmac('sha256', this.digestKey).update(value, 'utf8').digest('hex');
  }

  /**
   * A signer of short texts keyed like `digest` (HMAC-SHA256, hex) and separated by `purpose`, e.g.
   * for log cursors a client must hand back unchanged. Every instance with the same key signs alike.
   */
  signer(purpose: string): CursorSigner {
    return { sign: (text) => this.digest(`${purpose}\u0000${text}`) };
  }
}

function subkey(key: Uint8Array, info: string): Buffer {
  return Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), info, SECRET_KEY_BYTES));
}
