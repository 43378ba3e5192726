/**
 * Turns passwords into self-describing hashes (PHC strings) and checks them. A port inside the
 * local identity adapter, so tests can swap in a cheaper hasher.
 */
export interface PasswordHasher {
  /** A fresh salted hash of the password. */
  hash(password: string): Promise<string>;
  /** Whether the password matches the hash; the work done depends on the hash's own parameters. */
  verify(hash: string, password: string): Promise<boolean>;
}
