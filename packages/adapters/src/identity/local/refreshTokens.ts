import { createHash, randomBytes } from 'node:crypto';

/** A new opaque refresh token: 256 random bits, base64url (43 characters). */
export function newRefreshToken(): string {
  return randomBytes(32).toString('base64url');
}

/** The form a refresh token is stored and looked up in: hex SHA-256 of its value. */
export function hashRefreshToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
