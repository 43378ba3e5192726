import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A new unguessable connect key: 32 random bytes, base64url. */
export function generateSigningKey(): string {
  return randomBytes(32).toString('base64url');
}

/** The digest kept to check a presented key (the same length whatever was presented). */
export function digestSigningKey(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

/** True when `presented` is the key behind `digest`; constant time in the key's content. */
export function signingKeyMatches(presented: string | null | undefined, digest: Buffer): boolean {
  if (!presented) return false;
  return timingSafeEqual(digestSigningKey(presented), digest);
}
