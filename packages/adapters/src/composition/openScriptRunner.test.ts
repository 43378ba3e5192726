import { chmod, mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunsOptions } from './BrowserdeckOptions.ts';
import { openScriptRunner, warmRunnersFor } from './openScriptRunner.ts';

const modeOf = async (path: string) => ((await stat(path)).mode & 0o777).toString(8);

describe('openScriptRunner', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'browserdeck-runner-'));
  });
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  /** Opens (never starts) the confined runner over `dataDir` with `runs`. */
  const open = (runs: RunsOptions) =>
    openScriptRunner({
      browsers: { local: {} },
      runs,
      dataDir,
      logger: pino({ level: 'silent' }),
      onSpawned: () => {},
      ownUpgrade: () => false,
    });

  it('makes the runs folder 0700 before anything starts, on an instance that takes runs', async () => {
    await open({});
    expect(await modeOf(join(dataDir, 'runs'))).toBe('700');
  });

  it('narrows a runs folder left open to others to 0700', async () => {
    await mkdir(join(dataDir, 'runs'));
    await chmod(join(dataDir, 'runs'), 0o755);
    await open({ worker: true });
    expect(await modeOf(join(dataDir, 'runs'))).toBe('700');
  });

  it('makes no runs folder on an API-only instance', async () => {
    await open({ worker: false });
    await expect(stat(join(dataDir, 'runs'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('warmRunnersFor', () => {
  it('keeps one process ready per concurrent run unless told otherwise, and none without a worker', () => {
    expect(warmRunnersFor({})).toBe(2);
    expect(warmRunnersFor({ concurrency: 5 })).toBe(5);
    expect(warmRunnersFor({ concurrency: 5, warmRunners: 0 })).toBe(0);
    expect(warmRunnersFor({ concurrency: 1, warmRunners: 3 })).toBe(3);
    expect(warmRunnersFor({ worker: false, concurrency: 4, warmRunners: 2 })).toBe(0);
  });
});
