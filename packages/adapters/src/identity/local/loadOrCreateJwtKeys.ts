import { generateKeyPairSync } from 'node:crypto';
import { join } from 'node:path';
import { readOrCreatePrivateFile } from '../../shared/readOrCreatePrivateFile.ts';
import { importJwtKeys, type JwtKeys } from './importJwtKeys.ts';

/** Name of the development key file inside the data folder. */
export const JWT_KEY_FILE_NAME = 'jwt-ed25519.pem';

/** Where the signing key came from; worth one log line at start-up. */
export type JwtKeySource = 'configured' | 'file' | 'generated';

/** The imported keys, and where they came from. */
export interface LoadedJwtKeys {
  readonly keys: JwtKeys;
  readonly source: JwtKeySource;
  /** The key file read or written; null for a configured key. */
  readonly file: string | null;
}

/**
 * The JWT signing keys for this server, imported once: the configured PEM when given, else
 * `<dataDir>/jwt-ed25519.pem`, else a new Ed25519 key written there with mode 0600. Several
 * processes starting at once on one data folder agree on a single key: the file appears atomically
 * and only the first writer wins.
 */
export async function loadOrCreateJwtKeys(options: {
  dataDir: string;
  privateKeyPem?: string | undefined;
}): Promise<LoadedJwtKeys> {
  if (options.privateKeyPem !== undefined && options.privateKeyPem.trim() !== '') {
    return { keys: await importJwtKeys(options.privateKeyPem), source: 'configured', file: null };
  }
  const file = join(options.dataDir, JWT_KEY_FILE_NAME);
  const { content, created } = await readOrCreatePrivateFile(file, () =>
    generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  );
  return { keys: await importJwtKeys(content), source: created ? 'generated' : 'file', file };
}
