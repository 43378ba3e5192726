import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findExtensionsChromium, isHeadlessShell } from './findExtensionsChromium.ts';

describe('findExtensionsChromium', () => {
  let dir: string;
  let full: string;
  let wrapper: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'browserdeck-extensions-build-'));
    full = join(dir, 'chromium');
    wrapper = join(dir, 'chromium-wrapper');
    await writeFile(full, '\x7fELF');
    await writeFile(wrapper, '#!/bin/sh\nexec chromium "$@"\n');
    await chmod(full, 0o755);
    await chmod(wrapper, 0o755);
  });

  afterAll(() => rm(dir, { recursive: true, force: true }));

  const none = { env: {}, fullChromiumPaths: [] };

  it('takes the configured build first, then CHROMIUM_EXTENSIONS_PATH; null or `off` means none', () => {
    expect(findExtensionsChromium({ ...none, extensionsChromiumPath: '/opt/x/chrome' })).toEqual({
      path: '/opt/x/chrome',
      source: 'option',
    });
    expect(findExtensionsChromium({ ...none, env: { CHROMIUM_EXTENSIONS_PATH: ' /opt/y ' } })).toEqual({
      path: '/opt/y',
      source: 'env',
    });
    expect(
      findExtensionsChromium({ ...none, extensionsChromiumPath: null, fullChromiumPaths: [full] }),
    ).toBeNull();
    expect(
      findExtensionsChromium({
        ...none,
        env: { CHROMIUM_EXTENSIONS_PATH: 'off' },
        fullChromiumPaths: [full],
      }),
    ).toBeNull();
  });

  it('runs them on the main build when that is a full one, never on a headless shell or a wrapper script', () => {
    expect(findExtensionsChromium({ ...none, chromiumPath: full })).toEqual({ path: full, source: 'main' });
    expect(findExtensionsChromium({ ...none, env: { CHROMIUM_PATH: full } })).toEqual({
      path: full,
      source: 'main',
    });
    const shell = '/usr/lib/chromium/chromium-headless-shell';
    expect(findExtensionsChromium({ ...none, chromiumPath: shell, fullChromiumPaths: [full] })).toEqual({
      path: full,
      source: 'system',
    });
    expect(findExtensionsChromium({ ...none, chromiumPath: wrapper, fullChromiumPaths: [full] })).toEqual({
      path: full,
      source: 'system',
    });
  });

  it('falls back to an installed full Chromium, else there is none', () => {
    expect(findExtensionsChromium({ ...none, fullChromiumPaths: [join(dir, 'absent'), full] })).toEqual({
      path: full,
      source: 'system',
    });
    expect(findExtensionsChromium(none)).toBeNull();
  });

  it('tells a headless shell by its name', () => {
    for (const path of [
      '/usr/lib/chromium/chromium-headless-shell',
      '/x/headless_shell',
      '/x/chrome-headless-shell',
    ])
      expect(isHeadlessShell(path), path).toBe(true);
    for (const path of ['/usr/lib/chromium/chromium', '/opt/google/chrome/chrome'])
      expect(isHeadlessShell(path)).toBe(false);
  });
});
