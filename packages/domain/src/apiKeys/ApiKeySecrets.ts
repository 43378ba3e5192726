/**
 * Makes and checks key secrets; the randomness and hashing the domain may not do itself. A node
 * implementation uses `crypto.randomBytes`, SHA-256 and `timingSafeEqual`.
 */
export interface ApiKeySecrets {
  /**
   * A new secret: `marker` (default `bdk_`, a key: `API_KEY_PATTERN`; `bdi_` for an invitation) and
   * 32 random bytes, base64url.
   */
  generate(marker?: string): string;
  /** The SHA-256 digest of a key, as stored. */
  digest(key: string): string;
  /** Whether `key` has `digest`, compared in constant time. */
  matches(key: string, digest: string): boolean;
}
