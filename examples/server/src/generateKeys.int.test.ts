import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { importJwtKeys, loadOrCreateJwtKeys } from '@browserdeck/adapters/identity-local';
import { decodeSecretKey, loadOrCreateSecretKey } from '@browserdeck/adapters/secrets';
import { afterAll, describe, expect, it } from 'vitest';
import { npmScript } from '../../../test/npmScript.ts';
import { loadConfig } from './config.ts';

const dirs: string[] = [];
const scratch = () => {
  const dir = mkdtempSync(join(tmpdir(), 'browserdeck-keys-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/**
 * What the server does with the two variables at start-up: `loadConfig`, then the secret key and
 * the JWT keys loaded from them, in a data folder that must stay empty (nothing generated).
 */
async function serverAccepts(env: Record<string, string | undefined>) {
  const config = loadConfig({ ...env, DATA_DIR: scratch() });
  const secret = await loadOrCreateSecretKey({ dataDir: config.dataDir, secretKey: config.SECRET_KEY });
  const jwt = await loadOrCreateJwtKeys({ dataDir: config.dataDir, privateKeyPem: config.JWT_PRIVATE_KEY });
  expect(readdirSync(config.dataDir)).toEqual([]);
  return { secret, jwt };
}

describe('npm run keys', () => {
  it('prints SECRET_KEY and JWT_PRIVATE_KEY env-file lines the server takes as configured keys', async () => {
    const { code, stdout } = await npmScript(['run', '-s', 'keys']);
    expect(code).toBe(0);
    const lines = stdout.split('\n').filter((l) => l && !l.startsWith('#'));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^SECRET_KEY=[A-Za-z0-9_-]{43}$/);
    expect(lines[1]).toMatch(
      /^JWT_PRIVATE_KEY=-----BEGIN PRIVATE KEY-----\\n[A-Za-z0-9+/=]+\\n-----END PRIVATE KEY-----$/,
    );
    // Node's own env-file parser (`node --env-file`), as Docker and kubectl read it too: verbatim.
    const env = parseEnv(stdout);
    const { secret, jwt } = await serverAccepts(env);
    expect(secret).toMatchObject({ source: 'configured', file: null });
    expect(secret.key.equals(decodeSecretKey(env.SECRET_KEY ?? '') ?? Buffer.alloc(0))).toBe(true);
    expect(secret.key).toHaveLength(32);
    expect(jwt).toMatchObject({ source: 'configured', file: null, keys: { algorithm: 'EdDSA' } });
    // Two runs, two different keys.
    const again = parseEnv((await npmScript(['run', '-s', 'keys'])).stdout);
    expect(again.SECRET_KEY).not.toBe(env.SECRET_KEY);
    expect(again.JWT_PRIVATE_KEY).not.toBe(env.JWT_PRIVATE_KEY);
  });

  it('with --shell and a file: single-quoted values a shell sources, mode 0600, never overwritten', async () => {
    const file = join(scratch(), 'browserdeck-keys.env');
    const written = await npmScript(['run', '-s', 'keys', '--', '--shell', file]);
    expect(written.code).toBe(0);
    expect(written.stdout).toBe('');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const sourced = execFileSync(
      'sh',
      ['-c', 'set -a; . "$1"; printf "%s\\0%s" "$SECRET_KEY" "$JWT_PRIVATE_KEY"', 'sh', file],
      { encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } },
    ).split('\0');
    const { secret, jwt } = await serverAccepts({ SECRET_KEY: sourced[0], JWT_PRIVATE_KEY: sourced[1] });
    expect([secret.source, jwt.source]).toEqual(['configured', 'configured']);
    const before = readFileSync(file, 'utf8');
    const refused = await npmScript(['run', '-s', 'keys', '--', file]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/EEXIST/);
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it('the openssl commands of the docs make keys the server takes too', async (context) => {
    try {
      execFileSync('openssl', ['version'], { stdio: 'ignore' });
    } catch {
      context.skip('openssl is not installed');
    }
    // docs/deploy.md, "Keys": the same two lines with openssl alone.
    const line = `printf 'SECRET_KEY=%s\\nJWT_PRIVATE_KEY=%s\\n' "$(openssl rand -base64 32)" "$(openssl genpkey -algorithm ed25519 | awk 'NR > 1 { printf "\\\\n" } { printf "%s", $0 }')"`;
    const env = parseEnv(execFileSync('sh', ['-c', line], { encoding: 'utf8' }));
    expect(env.SECRET_KEY).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    const { secret, jwt } = await serverAccepts(env);
    expect([secret.source, jwt.source]).toEqual(['configured', 'configured']);
    // A PEM file as it is (real line breaks: `kubectl create secret … --from-file=JWT_PRIVATE_KEY=…`).
    const pem = execFileSync('openssl', ['genpkey', '-algorithm', 'ed25519'], { encoding: 'utf8' });
    expect((await importJwtKeys(pem)).algorithm).toBe('EdDSA');
  });
});
