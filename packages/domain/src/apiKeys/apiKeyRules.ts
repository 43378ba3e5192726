import { Checks } from '../shared/checks.ts';

/** What every key starts with, so a key is told from an access token at a glance (and by scanners). */
export const API_KEY_MARKER = 'bdk_';
/** Random bytes in a key (http-api.md §12); base64url-encoded after the marker. */
export const API_KEY_RANDOM_BYTES = 32;
/** A whole key: the marker and 43 base64url characters (32 bytes, no padding). */
export const API_KEY_PATTERN = /^bdk_[A-Za-z0-9_-]{43}$/;
/** Characters of a key kept in clear as its prefix: the marker and 8 random characters (48 bits). */
export const API_KEY_PREFIX_LENGTH = 12;
export const API_KEY_NAME_MIN_LENGTH = 1;
export const API_KEY_NAME_MAX_LENGTH = 100;
/** `lastUsedAt` is written at most this often per key. */
export const API_KEY_USAGE_STAMP_INTERVAL_MS = 60_000;

/** The clear prefix of a key, which it is looked up by. */
export function apiKeyPrefix(key: string): string {
  return key.slice(0, API_KEY_PREFIX_LENGTH);
}

/** Validates a trimmed key name and an optional expiry, which must lie in the future. */
export function checkApiKeyRequest(name: string, expiresAt: Date | null, now: Date): void {
  new Checks()
    .length(name, 'name', API_KEY_NAME_MIN_LENGTH, API_KEY_NAME_MAX_LENGTH)
    .text(name, 'name', 'name')
    .require(expiresAt === null || expiresAt.getTime() > now.getTime(), 'expiresAt', 'must lie in the future')
    .throwIfAny();
}
