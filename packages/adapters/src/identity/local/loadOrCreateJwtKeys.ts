import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
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
  const existing = await readIfPresent(file);
  if (existing !== null) return { keys: await importJwtKeys(existing), source: 'file', file };

  const pem = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  await mkdir(options.dataDir, { recursive: true, mode: 0o700 });
  // Write a private temporary file, then link it into place: readers never see half a key, and
  // `link` fails if another process got there first, in which case its key is the one.
  const temporary = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(temporary, pem, { mode: 0o600, flag: 'wx' });
  try {
    await placeExclusively(temporary, file, pem);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return { keys: await importJwtKeys(await readFile(file, 'utf8')), source: 'file', file };
  } finally {
    await unlink(temporary).catch(() => undefined);
  }
  return { keys: await importJwtKeys(pem), source: 'generated', file };
}

/** Links `temporary` to `file`; where hard links are unsupported, writes `file` exclusively instead. */
async function placeExclusively(temporary: string, file: string, pem: string): Promise<void> {
  try {
    await link(temporary, file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw error;
    await writeFile(file, pem, { mode: 0o600, flag: 'wx' });
  }
}

async function readIfPresent(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
