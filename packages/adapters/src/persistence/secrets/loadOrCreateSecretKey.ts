import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { readOrCreatePrivateFile } from '../../shared/readOrCreatePrivateFile.ts';
import { decodeSecretKey, parseSecretKey } from './parseSecretKey.ts';
import { SECRET_KEY_BYTES } from './SecretBox.ts';

/** Name of the generated development key file inside the data folder. */
export const SECRET_KEY_FILE_NAME = 'secret.key';

/**
 * Where the key came from; worth one log line at start-up (never the key itself). `derived`: the
 * configured `SECRET_KEY` was a passphrase, hashed into a key.
 */
export type SecretKeySource = 'configured' | 'derived' | 'file' | 'generated';

/** The 32-byte key for `new SecretBox(key)`, and where it came from. */
export interface LoadedSecretKey {
  readonly key: Buffer;
  readonly source: SecretKeySource;
  /** The key file read or written; null for a configured key. */
  readonly file: string | null;
}

/**
 * The key that encrypts secrets at rest. A configured `secretKey` (SECRET_KEY) wins: 32 bytes as
 * hex, base64 or base64url, else a passphrase hashed with SHA-256 (see `parseSecretKey`). Without
 * one, `<dataDir>/secret.key` (32 bytes, base64url) is read, or created with mode 0600. Several
 * processes starting at once on one data folder agree on one key: the file appears atomically and
 * only the first writer wins. Losing the key makes every stored env value unreadable.
 */
export async function loadOrCreateSecretKey(options: {
  dataDir: string;
  secretKey?: string | undefined;
}): Promise<LoadedSecretKey> {
  if (options.secretKey !== undefined && options.secretKey.trim() !== '') {
    const { key, derived } = parseSecretKey(options.secretKey);
    return { key, source: derived ? 'derived' : 'configured', file: null };
  }
  const file = join(options.dataDir, SECRET_KEY_FILE_NAME);
  const { content, created } = await readOrCreatePrivateFile(
    file,
    () => `${randomBytes(SECRET_KEY_BYTES).toString('base64url')}\n`,
  );
  return { key: decodeKeyFile(content, file), source: created ? 'generated' : 'file', file };
}

function decodeKeyFile(content: string, file: string): Buffer {
  const key = decodeSecretKey(content);
  if (!key) throw new Error(`${file} does not hold a ${SECRET_KEY_BYTES}-byte key (base64url or hex).`);
  return key;
}
