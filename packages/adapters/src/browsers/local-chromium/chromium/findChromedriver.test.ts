import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findChromedriver } from './findChromedriver.ts';
import { majorVersion } from './majorVersion.ts';

describe('findChromedriver', () => {
  let dir: string;
  let driver: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'find-chromedriver-'));
    driver = join(dir, 'chromedriver');
    await writeFile(driver, '#!/bin/sh\n');
    await chmod(driver, 0o755);
    await writeFile(join(dir, 'not-executable'), '');
  });

  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('takes the configured path, then CHROMEDRIVER_PATH, then the system path, then PATH', async () => {
    const elsewhere = join(dir, 'elsewhere');
    await writeFile(elsewhere, '#!/bin/sh\n');
    await chmod(elsewhere, 0o755);
    expect(await findChromedriver({ chromedriverPath: elsewhere, env: { CHROMEDRIVER_PATH: driver } })).toBe(
      elsewhere,
    );
    expect(
      await findChromedriver({ env: { CHROMEDRIVER_PATH: driver }, chromedriverPaths: [elsewhere] }),
    ).toBe(driver);
    expect(
      await findChromedriver({ env: {}, chromedriverPaths: [join(dir, 'not-executable'), elsewhere] }),
    ).toBe(elsewhere);
    expect(await findChromedriver({ env: { PATH: `/nonexistent:${dir}` }, chromedriverPaths: [] })).toBe(
      driver,
    );
    expect(await findChromedriver({ env: { PATH: '/nonexistent' }, chromedriverPaths: [] })).toBeNull();
  });

  it('refuses a configured path that is not an executable file instead of falling back', async () => {
    await expect(
      findChromedriver({
        env: { CHROMEDRIVER_PATH: join(dir, 'not-executable') },
        chromedriverPaths: [driver],
      }),
    ).rejects.toMatchObject({
      code: 'provider_unavailable',
      message: expect.stringContaining('apt-get install chromium-headless-shell chromium-driver'),
    });
  });
});

describe('majorVersion', () => {
  it('reads the major version of a browser’s or chromedriver’s --version line', () => {
    expect(majorVersion('Chromium 156.0.8078.108 built on Debian GNU/Linux 12 (bookworm)')).toBe(156);
    expect(majorVersion('ChromeDriver 156.0.8078.108 (730482a9-refs/branch-heads/8078@{#2244})')).toBe(156);
    expect(majorVersion('Google Chrome 148.0.7778.5')).toBe(148);
    expect(majorVersion('HeadlessChrome/147.0.7727.0')).toBe(147);
    expect(majorVersion('no version')).toBeNull();
    expect(majorVersion(null)).toBeNull();
  });
});
