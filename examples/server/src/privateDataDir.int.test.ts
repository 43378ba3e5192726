import { chmod, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import { startServer } from './startServer.ts';

const modeOf = async (path: string) => ((await stat(path)).mode & 0o777).toString(8);

/** Every file in `dir` with its mode, e.g. `{ 'secret.key': '600' }`. */
async function modes(dir: string): Promise<Record<string, string>> {
  const names = (await readdir(dir)).sort();
  return Object.fromEntries(await Promise.all(names.map(async (n) => [n, await modeOf(join(dir, n))])));
}

/** A pino logger whose lines land in `lines`. */
function capturingLogger() {
  const lines: Array<Record<string, unknown>> = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
  return { logger, lines };
}

describe('DATA_DIR is private (http-api.md §10)', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'browserdeck-datadir-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  // Browserbase (never called here) keeps Chromium out of it; identity and secrets write their keys.
  // No run worker: its script runner would add its `runs/` folder (0700) while the test looks.
  const configFor = (dataDir: string) =>
    loadConfig({
      DATA_DIR: dataDir,
      PORT: '0',
      RUN_WORKER: 'false',
      BROWSER_PROVIDER: 'browserbase',
      BROWSERBASE_API_KEY: 'bb_test',
      BROWSERBASE_PROJECT_ID: 'proj',
    });

  it('creates 0700 with 0600 files, and narrows a 0755 folder with 0644 files at the next start, logging it once', async () => {
    const dataDir = join(root, 'data');
    const first = await startServer(configFor(dataDir), pino({ level: 'silent' }));
    const expected = {
      'browserdeck.sqlite': '600',
      'browserdeck.sqlite-shm': '600',
      'browserdeck.sqlite-wal': '600',
      'jwt-ed25519.pem': '600',
      'secret.key': '600',
    };
    try {
      expect(await modeOf(dataDir)).toBe('700');
      expect(await modes(dataDir)).toEqual(expected);
    } finally {
      await first.stop();
    }

    // As an older version, a restored backup or a loose umask would have left it.
    await chmod(dataDir, 0o755);
    for (const name of await readdir(dataDir)) await chmod(join(dataDir, name), 0o644);
    const { logger, lines } = capturingLogger();
    const second = await startServer(configFor(dataDir), logger);
    try {
      expect(await modeOf(dataDir)).toBe('700');
      expect(await modes(dataDir)).toMatchObject({
        'browserdeck.sqlite': '600',
        'jwt-ed25519.pem': '600',
        'secret.key': '600',
      });
      expect(Object.values(await modes(dataDir)).every((mode) => mode === '600')).toBe(true);
      const warnings = lines.filter((l) => String(l.msg).startsWith('DATA_DIR was open to other users'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatchObject({ level: 40, dataDir });
      const tightened = (warnings[0]!.tightened as Array<{ path: string; from: string }>).map((t) => t.path);
      expect(tightened).toEqual(
        expect.arrayContaining([dataDir, join(dataDir, 'secret.key'), join(dataDir, 'browserdeck.sqlite')]),
      );
      // It works on the keys it found: a sign-up stores a user and answers 201.
      const signup = await fetch(`${second.url}/v1/auth/signup`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: 'ada@example.com', password: 'correct horse battery' }),
      });
      expect(signup.status).toBe(201);
      expect(Object.values(await modes(dataDir)).every((mode) => mode === '600')).toBe(true);
    } finally {
      await second.stop();
    }
  });
});
