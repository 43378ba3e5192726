import type { SecretBox } from '../secrets/SecretBox.ts';

/** A string map (session `env`, agent `envVars`) sealed as JSON. */
export function sealSecretRecord(secrets: SecretBox, record: Record<string, string>): string {
  return secrets.seal(JSON.stringify(record));
}

/** The string map `sealSecretRecord` sealed. Throws `SecretBoxError` under the wrong key. */
export function openSecretRecord(secrets: SecretBox, sealed: string): Record<string, string> {
  return JSON.parse(secrets.open(sealed)) as Record<string, string>;
}
