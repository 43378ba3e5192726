import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JwtTokenService } from './JwtTokenService.ts';
import { JWT_KEY_FILE_NAME, loadOrCreateJwtKeys } from './loadOrCreateJwtKeys.ts';

const now = new Date('2026-01-01T00:00:00.000Z');
const claims = { userId: 'u1', email: 'ada@example.com', sessionId: 's1', tokenId: 't1' };

describe('loadOrCreateJwtKeys', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'browserdeck-jwt-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('generates a key into a new data folder with mode 0600, then reuses it', async () => {
    const dataDir = join(root, 'nested', 'data');
    const first = await loadOrCreateJwtKeys({ dataDir });
    const file = join(dataDir, JWT_KEY_FILE_NAME);
    expect(first).toMatchObject({ source: 'generated', file });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readFile(file, 'utf8')).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    expect(await readdir(dataDir)).toEqual([JWT_KEY_FILE_NAME]);

    const second = await loadOrCreateJwtKeys({ dataDir });
    expect(second).toMatchObject({ source: 'file', file });
    expect(second.keys.keyId).toBe(first.keys.keyId);
    // A token from the first start verifies after a restart.
    const { token } = await new JwtTokenService({ keys: first.keys }).sign(claims, now, 900);
    await expect(new JwtTokenService({ keys: second.keys }).verify(token, now)).resolves.toMatchObject(
      claims,
    );
  });

  it('agrees on one key when several starts race on an empty data folder', async () => {
    const dataDir = join(root, 'data');
    const loaded = await Promise.all(Array.from({ length: 8 }, () => loadOrCreateJwtKeys({ dataDir })));
    expect(new Set(loaded.map((l) => l.keys.keyId)).size).toBe(1);
    expect(await readdir(dataDir)).toEqual([JWT_KEY_FILE_NAME]);
  });

  it('prefers a configured PEM, with or without escaped newlines, and writes no file', async () => {
    const pem = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const dataDir = join(root, 'data');
    const plain = await loadOrCreateJwtKeys({ dataDir, privateKeyPem: pem });
    const escaped = await loadOrCreateJwtKeys({ dataDir, privateKeyPem: pem.replace(/\n/g, '\\n') });
    expect(plain).toMatchObject({ source: 'configured', file: null });
    expect(escaped.keys.keyId).toBe(plain.keys.keyId);
    await expect(stat(dataDir)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('reads a key file someone put in the data folder', async () => {
    const pem = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    await writeFile(join(root, JWT_KEY_FILE_NAME), pem, { mode: 0o600 });
    const fromFile = await loadOrCreateJwtKeys({ dataDir: root });
    const configured = await loadOrCreateJwtKeys({ dataDir: root, privateKeyPem: pem });
    expect(fromFile.source).toBe('file');
    expect(fromFile.keys.keyId).toBe(configured.keys.keyId);
  });

  it('refuses keys that are not Ed25519 private keys, without echoing them', async () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 })
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString();
    await expect(loadOrCreateJwtKeys({ dataDir: root, privateKeyPem: rsa })).rejects.toThrow(
      /must be an Ed25519/,
    );
    const garbage = 'not-a-key-SECRET-MATERIAL';
    const error = await loadOrCreateJwtKeys({ dataDir: root, privateKeyPem: garbage }).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).not.toContain('SECRET');
  });
});
