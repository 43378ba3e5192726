import { createHash } from 'node:crypto';
import { SECRET_KEY_BYTES } from './SecretBox.ts';

const HEX_KEY = /^[0-9a-fA-F]{64}$/;
const BASE64_KEY = /^[A-Za-z0-9+/_-]{43}=?$/;

/**
 * The 32-byte key that `encoded` holds, when it is 32 bytes written as hex (64 characters) or as
 * base64 / base64url (43 characters, or 44 with one `=`); otherwise null.
 */
export function decodeSecretKey(encoded: string): Buffer | null {
  const value = encoded.trim();
  if (HEX_KEY.test(value)) return Buffer.from(value, 'hex');
  if (BASE64_KEY.test(value)) {
    // Node's base64 decoder reads both alphabets.
    const bytes = Buffer.from(value, 'base64');
    if (bytes.length === SECRET_KEY_BYTES) return bytes;
  }
  return null;
}

/**
 * The key a configured `SECRET_KEY` stands for: 32 bytes as hex, base64 or base64url are used as
 * they are (`derived: false`); any other non-empty string is a passphrase, and the key is its
 * SHA-256, surrounding whitespace ignored (`derived: true`). There is no key stretching, so a
 * passphrase must be long and random; prefer `openssl rand -base64 32`.
 */
export function parseSecretKey(configured: string): { key: Buffer; derived: boolean } {
  const decoded = decodeSecretKey(configured);
  if (decoded) return { key: decoded, derived: false };
  if (configured.trim() === '') throw new RangeError('SECRET_KEY is empty.');
  return { key: createHash('sha256').update(configured.trim(), 'utf8').digest(), derived: true };
}
