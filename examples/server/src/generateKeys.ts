import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * `npm run -s keys [-- [--shell] [file]]`: new production keys as env-file lines: `SECRET_KEY`
 * (32 random bytes, base64url, which `SECRET_KEY` takes as the key itself) and `JWT_PRIVATE_KEY`
 * (an Ed25519 PKCS#8 PEM on one line, its line breaks written `\n`, which the server reads back).
 * Plain `KEY=value` lines suit `docker run --env-file`, Compose `env_file`, `kubectl create secret
 * generic --from-env-file` and `node --env-file`; `--shell` single-quotes the values for a shell's
 * `. file` or systemd's `EnvironmentFile=`. With a file, it is written with mode 0600 and never
 * overwritten; without, the lines go to stdout. Node built-ins only.
 */
export function generateKeys(options: { shell?: boolean } = {}): string {
  const secretKey = randomBytes(32).toString('base64url');
  const pem = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const jwt = pem.trim().split('\n').join('\\n');
  const value = (v: string) => (options.shell ? `'${v}'` : v);
  return [
    `# Browserdeck keys, made ${new Date().toISOString()}. Secret: give every instance the same two.`,
    `SECRET_KEY=${value(secretKey)}`,
    `JWT_PRIVATE_KEY=${value(jwt)}`,
    '',
  ].join('\n');
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const unknown = args.filter((a) => a.startsWith('-') && a !== '--shell');
  const files = args.filter((a) => !a.startsWith('-'));
  if (unknown.length > 0 || files.length > 1) {
    console.error('usage: npm run -s keys [-- [--shell] [file]]');
    process.exit(2);
  }
  const text = generateKeys({ shell: args.includes('--shell') });
  // A relative file is the caller's (npm runs scripts from the repository's root; INIT_CWD is where npm was run).
  const file = files[0] === undefined ? undefined : resolve(process.env.INIT_CWD ?? process.cwd(), files[0]);
  if (file === undefined) process.stdout.write(text);
  else {
    try {
      writeFileSync(file, text, { mode: 0o600, flag: 'wx' });
    } catch (error) {
      console.error(`keys: cannot write ${file}: ${(error as Error).message}`);
      process.exit(1);
    }
    console.error(`keys: wrote SECRET_KEY and JWT_PRIVATE_KEY to ${file} (mode 0600)`);
  }
}
