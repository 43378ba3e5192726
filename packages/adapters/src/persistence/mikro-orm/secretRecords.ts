import type { SecretBox } from '../secrets/SecretBox.ts';

/** A string map (session `env`, agent `envVars`) sealed as JSON. */
export function sealSecretRecord(secrets: SecretBox, record: Record<string, string>): string {
  return secrets.seal(JSON.stringify(record));
}

/** The string map `sealSecretRecord` sealed. Throws `SecretBoxError` under the wrong key. */
export function openSecretRecord(secrets: SecretBox, sealed: string): Record<string, string> {
  return JSON.parse(secrets.open(sealed)) as Record<string, string>;
}

/**
 * Opens a column that is sealed since a later version and held plain text before (the session's
 * `connect_url`, an idempotency `answer`), telling the two apart by `isPlain`: a sealed value is
 * base64url parts joined by dots (`SecretBox.seal`), so it never holds a `:`, `{` or `/`.
 */
export function openSealedOrPlain(
  secrets: SecretBox,
  stored: string,
  isPlain: (stored: string) => boolean,
): string {
  return isPlain(stored) ? stored : secrets.open(stored);
}

/**
 * The connect URL `browser_sessions.connect_url` holds: sealed (it carries the provider's signing
 * key, http-api.md §10), or, in rows written before it was sealed, the plain URL, which has a scheme's `:`.
 */
export function openConnectUrl(secrets: SecretBox, stored: string): string {
  return openSealedOrPlain(secrets, stored, (value) => value === '' || value.includes(':'));
}
