import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadOrCreateSecretKey, SECRET_KEY_FILE_NAME } from './loadOrCreateSecretKey.ts';
import { parseSecretKey } from './parseSecretKey.ts';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'browserdeck-secret-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('parseSecretKey', () => {
  const raw = randomBytes(32);
  it('takes 32 bytes as hex, base64 and base64url as they are', () => {
    for (const encoded of [
      raw.toString('hex'),
      raw.toString('hex').toUpperCase(),
      raw.toString('base64'),
      raw.toString('base64url'),
      ` ${raw.toString('base64')}\n`,
    ]) {
      expect(parseSecretKey(encoded)).toEqual({ key: raw, derived: false });
    }
  });

  it('derives a key from anything else with SHA-256', () => {
    const sha = (s: string) => createHash('sha256').update(s).digest();
    expect(parseSecretKey('correct horse battery staple')).toEqual({
      key: sha('correct horse battery staple'),
      derived: true,
    });
    // 16 bytes of base64 is no key of ours: derived, not decoded.
    const short = randomBytes(16).toString('base64');
    expect(parseSecretKey(short)).toEqual({ key: sha(short), derived: true });
    expect(() => parseSecretKey('   ')).toThrow(/empty/);
  });
});

describe('loadOrCreateSecretKey', () => {
  it('prefers the configured key and touches no file', async () => {
    const dataDir = tempDir();
    const raw = randomBytes(32);
    expect(await loadOrCreateSecretKey({ dataDir, secretKey: raw.toString('hex') })).toEqual({
      key: raw,
      source: 'configured',
      file: null,
    });
    expect((await loadOrCreateSecretKey({ dataDir, secretKey: 'a passphrase' })).source).toBe('derived');
    expect(() => statSync(join(dataDir, SECRET_KEY_FILE_NAME))).toThrow();
  });

  it('generates a key file with mode 0600 once, then reads it', async () => {
    const dataDir = join(tempDir(), 'nested', 'data');
    const first = await loadOrCreateSecretKey({ dataDir, secretKey: '' });
    expect(first.source).toBe('generated');
    expect(first.key).toHaveLength(32);
    const file = join(dataDir, SECRET_KEY_FILE_NAME);
    expect(first.file).toBe(file);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8').trim()).toBe(first.key.toString('base64url'));
    const again = await loadOrCreateSecretKey({ dataDir });
    expect(again).toEqual({ key: first.key, source: 'file', file });
  });

  it('makes a key file and folder that existed with looser modes private (0600, 0700)', async () => {
    const dataDir = tempDir();
    const key = randomBytes(32).toString('base64url');
    writeFileSync(join(dataDir, SECRET_KEY_FILE_NAME), `${key}\n`);
    chmodSync(join(dataDir, SECRET_KEY_FILE_NAME), 0o644);
    chmodSync(dataDir, 0o755);
    const loaded = await loadOrCreateSecretKey({ dataDir });
    expect(loaded).toMatchObject({ source: 'file' });
    expect(loaded.key.toString('base64url')).toBe(key);
    expect(statSync(join(dataDir, SECRET_KEY_FILE_NAME)).mode & 0o777).toBe(0o600);
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
  });

  it('agrees on one key when many start at once', async () => {
    const dataDir = tempDir();
    const loaded = await Promise.all(Array.from({ length: 12 }, () => loadOrCreateSecretKey({ dataDir })));
    expect(new Set(loaded.map((l) => l.key.toString('hex'))).size).toBe(1);
    expect(loaded.filter((l) => l.source === 'generated').length).toBeLessThanOrEqual(1);
  });

  it('refuses a key file that holds no key, naming it', async () => {
    const dataDir = tempDir();
    writeFileSync(join(dataDir, SECRET_KEY_FILE_NAME), 'not a key\n');
    await expect(loadOrCreateSecretKey({ dataDir })).rejects.toThrow(SECRET_KEY_FILE_NAME);
  });
});
