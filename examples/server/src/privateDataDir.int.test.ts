import { chmod, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';
import { startServer } from './startServer.ts';

const modeOf = async (path: string) => ((await stat(path)).mode & 0o777).toString(8);

/** Every entry of `dir` with its mode, e.g. `{ runs: '700', 'secret.key': '600' }`. */
async function modes(dir: string): Promise<Record<string, string>> {
  const names = (await readdir(dir)).sort();
  return Object.fromEntries(await Promise.all(names.map(async (n) => [n, await modeOf(join(dir, n))])));
}

/** The entries of `dir` that are not private: a folder other than 0700, anything else other than 0600. */
async function notPrivate(dir: string): Promise<string[]> {
  const open: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const mode = await modeOf(join(dir, entry.name));
    if (mode !== (entry.isDirectory() ? '700' : '600')) open.push(`${entry.name} ${mode}`);
  }
  return open;
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

  // Browserbase (never called here) keeps Chromium out of it; identity and secrets write their keys;
  // the run worker's script runner makes its `runs/` folder before the server listens.
  const configFor = (dataDir: string) =>
    loadConfig({
      DATA_DIR: dataDir,
      PORT: '0',
      BROWSER_PROVIDER: 'browserbase',
      BROWSERBASE_API_KEY: 'bb_test',
      BROWSERBASE_PROJECT_ID: 'proj',
    });

  it('creates 0700 with 0600 files, and narrows a 0755 folder with 0644 files at the next start, logging it once', async () => {
    const dataDir = join(root, 'data');
    expect(configFor(dataDir).RUN_WORKER).toBe(true);
    const first = await startServer(configFor(dataDir), pino({ level: 'silent' }));
    const expected = {
      'browserdeck.sqlite': '600',
      'browserdeck.sqlite-shm': '600',
      'browserdeck.sqlite-wal': '600',
      'instance-id': '600',
      'jwt-ed25519.pem': '600',
      runs: '700',
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
    for (const entry of await readdir(dataDir, { withFileTypes: true }))
      await chmod(join(dataDir, entry.name), entry.isDirectory() ? 0o755 : 0o644);
    const { logger, lines } = capturingLogger();
    const second = await startServer(configFor(dataDir), logger);
    try {
      expect(await modeOf(dataDir)).toBe('700');
      expect(await modes(dataDir)).toMatchObject({
        'browserdeck.sqlite': '600',
        'jwt-ed25519.pem': '600',
        runs: '700',
        'secret.key': '600',
      });
      expect(await notPrivate(dataDir)).toEqual([]);
      const warnings = lines.filter((l) => String(l.msg).startsWith('DATA_DIR was open to other users'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatchObject({ level: 40, dataDir });
      const tightened = (warnings[0]!.tightened as Array<{ path: string; from: string }>).map((t) => t.path);
      expect(tightened).toEqual(
        expect.arrayContaining([dataDir, join(dataDir, 'secret.key'), join(dataDir, 'browserdeck.sqlite')]),
      );
      const runsWarnings = lines.filter((l) =>
        String(l.msg).startsWith('the runs folder was open to other users'),
      );
      expect(runsWarnings).toEqual([
        expect.objectContaining({
          level: 40,
          runsDir: join(dataDir, 'runs'),
          tightened: [{ path: join(dataDir, 'runs'), from: '755' }],
        }),
      ]);
      // It works on the keys it found: a sign-up stores a user and answers 201.
      const signup = await fetch(`${second.url}/v1/auth/signup`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: 'ada@example.com', password: 'correct horse battery' }),
      });
      expect(signup.status).toBe(201);
      expect(await notPrivate(dataDir)).toEqual([]);
    } finally {
      await second.stop();
    }
  });
});
