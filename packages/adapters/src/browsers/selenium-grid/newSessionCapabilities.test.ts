import { describe, expect, it } from 'vitest';
import { GRID_DEFAULT_WINDOW, newSessionCapabilities } from './newSessionCapabilities.ts';

describe('newSessionCapabilities', () => {
  it('asks for Chrome with CDP, headless, the viewport as its window, and names our session', () => {
    expect(newSessionCapabilities({ sessionId: 's-1', viewport: { width: 1280, height: 720 } }, {})).toEqual({
      browserName: 'chrome',
      'se:cdpEnabled': true,
      'se:name': 'browserdeck s-1',
      'goog:chromeOptions': { args: ['--headless=new', '--window-size=1280,720', '--no-first-run'] },
    });
    const plain = newSessionCapabilities({ sessionId: 's-2', viewport: null }, {});
    expect((plain['goog:chromeOptions'] as { args: string[] }).args).toContain(
      `--window-size=${GRID_DEFAULT_WINDOW.width},${GRID_DEFAULT_WINDOW.height}`,
    );
  });

  it('merges the operator’s capabilities and arguments, while what Browserdeck needs wins', () => {
    const caps = newSessionCapabilities(
      { sessionId: 's-3', viewport: null },
      {
        chromeArgs: ['--no-sandbox'],
        extra: {
          platformName: 'linux',
          browserName: 'firefox',
          'se:cdpEnabled': false,
          'goog:chromeOptions': { binary: '/opt/chrome', args: ['--lang=de', '--no-first-run'] },
        },
      },
    );
    expect(caps).toMatchObject({ platformName: 'linux', browserName: 'chrome', 'se:cdpEnabled': true });
    expect(caps['goog:chromeOptions']).toEqual({
      binary: '/opt/chrome',
      args: ['--headless=new', '--window-size=800,600', '--no-first-run', '--lang=de', '--no-sandbox'],
    });
  });
});
