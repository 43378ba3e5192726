import type { Logger } from '@browserdeck/domain';
import { describe, expect, it } from 'vitest';
import { ChromiumLocator } from './ChromiumLocator.ts';
import type { FindChromiumOptions, FoundChromium } from './findChromium.ts';

function recordingLogger() {
  const lines: Array<{ message: string; details: Record<string, unknown> }> = [];
  const logger: Logger = {
    info: (details, message) => lines.push({ details, message }),
    warn: () => {},
    error: () => {},
  };
  return { logger, lines };
}

describe('ChromiumLocator', () => {
  const debian = async () => 'Chromium 156.0.8078.108 built on Debian GNU/Linux 12 (bookworm)';

  it('logs which browser runs (its --version) and where it came from, once', async () => {
    const { logger, lines } = recordingLogger();
    const find = async (): Promise<FoundChromium> => ({ path: '/usr/bin/chromium', source: 'system' });
    const locator = new ChromiumLocator({}, logger, find, debian);
    await locator.locate();
    await locator.locate();
    expect(lines).toEqual([
      {
        message:
          "local provider: Chromium 156.0.8078.108 built on Debian GNU/Linux 12 (bookworm) from the system's browser: /usr/bin/chromium",
        details: {
          chromium: '/usr/bin/chromium',
          chromiumSource: 'system',
          chromiumVersion: 'Chromium 156.0.8078.108 built on Debian GNU/Linux 12 (bookworm)',
        },
      },
    ]);
  });

  it('names CHROMIUM_PATH and the configured path as the source, and says when --version did not answer', async () => {
    for (const [source, expected] of [
      ['env', 'local provider: Chromium (its --version did not answer) from CHROMIUM_PATH: /opt/chrome'],
      [
        'option',
        "local provider: Chromium (its --version did not answer) from the configured path (chromiumPath, the server's CHROMIUM_PATH): /opt/chrome",
      ],
    ] as const) {
      const { logger, lines } = recordingLogger();
      const find = async () => ({ path: '/opt/chrome', source });
      await new ChromiumLocator({}, logger, find, async () => null).locate();
      expect(lines.map((l) => l.message)).toEqual([expected]);
    }
  });

  it('asks the real browser for its version', async () => {
    const { logger, lines } = recordingLogger();
    await new ChromiumLocator({}, logger).locate();
    expect(lines.at(-1)!.details.chromiumVersion).toMatch(
      /^(Chromium|Google Chrome)[^\n]* \d+\.\d+\.\d+\.\d+/,
    );
  }, 60_000); // A first run unpacks the npm package's browser.

  it('says the npm package’s browser is being unpacked before the unpack starts, then where it came from', async () => {
    const { logger, lines } = recordingLogger();
    const unpacks: unknown[] = [];
    let linesWhenUnpacking = -1;
    const find = async (options: FindChromiumOptions): Promise<FoundChromium> => {
      const unpack = {
        version: '147.0.0',
        compressedBytes: 63_606_468,
        target: '/tmp/browserdeck-chromium-147.0.0/chromium',
      };
      options.onUnpack?.(unpack);
      linesWhenUnpacking = lines.length;
      return { path: unpack.target, source: 'npm' };
    };
    const version = async () => 'Chromium 147.0.7727.0';
    await new ChromiumLocator({ onUnpack: (u) => unpacks.push(u) }, logger, find, version).locate();
    expect(linesWhenUnpacking).toBe(1);
    expect(lines.map((l) => l.message)).toEqual([
      'local provider: unpacking Chromium from @sparticuz/chromium 147.0.0 (61 MB compressed, about 187 MB unpacked) ' +
        'into /tmp/browserdeck-chromium-147.0.0/chromium; only the first start does this, and it takes a while',
      'local provider: Chromium 147.0.7727.0 from the npm package @sparticuz/chromium (its headless shell), unpacked at /tmp/browserdeck-chromium-147.0.0/chromium',
    ]);
    expect(lines[0]!.details).toMatchObject({ chromiumSource: 'npm', version: '147.0.0' });
    // A caller's own onUnpack is still told.
    expect(unpacks).toHaveLength(1);
  });

  it('logs nothing and searches again after a search that found no browser', async () => {
    const { logger, lines } = recordingLogger();
    let calls = 0;
    const locator = new ChromiumLocator({}, logger, async () => {
      calls++;
      return null;
    });
    await expect(locator.locate()).rejects.toMatchObject({ code: 'provider_unavailable' });
    await expect(locator.locate()).rejects.toMatchObject({ code: 'provider_unavailable' });
    expect(calls).toBe(2);
    expect(lines).toEqual([]);
  });
});
