import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findChromium } from './findChromium.ts';

describe('findChromium', () => {
  let dir: string;
  let exe: string;
  let notExecutable: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'find-chromium-'));
    exe = join(dir, 'chromium');
    notExecutable = join(dir, 'google-chrome');
    await writeFile(exe, '#!/bin/sh\n');
    await chmod(exe, 0o755);
    await writeFile(notExecutable, '');
  });

  afterAll(() => rm(dir, { recursive: true, force: true }));

  const nowhere = { systemPaths: [], useNpmPackage: false, headlessShellPaths: [] } as const;

  /** An executable script that prints `line` for `--version`. */
  async function versioned(name: string, line: string): Promise<string> {
    const path = join(dir, name);
    await writeFile(path, `#!/bin/sh\necho "${line}"\n`);
    await chmod(path, 0o755);
    return path;
  }

  it('prefers the explicit path, then CHROMIUM_PATH', async () => {
    expect(await findChromium({ ...nowhere, chromiumPath: exe, env: { CHROMIUM_PATH: '/nope' } })).toEqual({
      path: exe,
      source: 'option',
    });
    expect(await findChromium({ ...nowhere, env: { CHROMIUM_PATH: exe } })).toEqual({
      path: exe,
      source: 'env',
    });
  });

  it('refuses an explicit path that is not an executable file instead of falling back', async () => {
    for (const path of [notExecutable, join(dir, 'missing'), dir])
      await expect(findChromium({ ...nowhere, env: { CHROMIUM_PATH: path } })).rejects.toMatchObject({
        code: 'provider_unavailable',
        message: expect.stringContaining('CHROMIUM_PATH'),
      });
  });

  it('without the npm package, looks at the system paths, then on PATH, skipping what is not executable', async () => {
    expect(await findChromium({ ...nowhere, env: {}, systemPaths: [notExecutable, exe] })).toEqual({
      path: exe,
      source: 'system',
    });
    expect(await findChromium({ ...nowhere, env: { PATH: `/nonexistent:${dir}` } })).toEqual({
      path: exe,
      source: 'system',
    });
  });

  it('answers null when there is nothing and the npm package is off', async () => {
    expect(await findChromium({ ...nowhere, env: { PATH: '/nonexistent' } })).toBeNull();
  });

  it('prefers the headless shell inside @sparticuz/chromium, unpacked into the temporary folder, to a system browser', async () => {
    const found = await findChromium({ env: { PATH: dir }, systemPaths: [exe], headlessShellPaths: [] });
    expect(found).toEqual({
      path: expect.stringMatching(new RegExp(`^${tmpdir()}/browserdeck-chromium-[\\d.]+/chromium$`)),
      source: 'npm',
    });
  });

  it('still lets CHROMIUM_PATH choose a system browser over the npm package', async () => {
    expect(await findChromium({ env: { CHROMIUM_PATH: exe }, systemPaths: [] })).toEqual({
      path: exe,
      source: 'env',
    });
  });

  it('prefers a headless shell with a chromedriver of its major version to the npm package', async () => {
    const shell = await versioned('chromium-headless-shell', 'Chromium 156.0.8078.108');
    const driver = await versioned(
      'chromedriver-156',
      'ChromeDriver 156.0.8078.108 (730482a9-refs/branch-heads/8078@{#2244})',
    );
    expect(
      await findChromium({
        env: {},
        headlessShellPaths: [shell],
        chromedriverPaths: [driver],
        systemPaths: [exe],
      }),
    ).toEqual({ path: shell, source: 'paired' });
    expect(
      await findChromium({
        env: { CHROMEDRIVER_PATH: driver },
        headlessShellPaths: [shell],
        chromedriverPaths: [],
      }),
    ).toEqual({ path: shell, source: 'paired' });
    expect(
      await findChromium({
        env: { CHROMIUM_PATH: exe },
        headlessShellPaths: [shell],
        chromedriverPaths: [driver],
      }),
    ).toEqual({ path: exe, source: 'env' });
  });

  it('passes over a headless shell without a chromedriver of its major version', async () => {
    const shell = await versioned('chromium-headless-shell-2', 'Chromium 156.0.8078.108');
    const older = await versioned('chromedriver-147', 'ChromeDriver 147.0.7727.0 (abc)');
    const options = {
      ...nowhere,
      env: { PATH: '/nonexistent' },
      systemPaths: [exe],
      headlessShellPaths: [shell],
    };
    expect(await findChromium({ ...options, chromedriverPaths: [older] })).toEqual({
      path: exe,
      source: 'system',
    });
    expect(await findChromium({ ...options, chromedriverPaths: [] })).toEqual({
      path: exe,
      source: 'system',
    });
    expect(
      await findChromium({
        ...options,
        env: { CHROMEDRIVER_PATH: join(dir, 'missing') },
        chromedriverPaths: [older],
      }),
    ).toEqual({ path: exe, source: 'system' });
  });
});
