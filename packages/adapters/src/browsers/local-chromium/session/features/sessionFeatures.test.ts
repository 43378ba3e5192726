import { browserRequest } from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { mergePlans } from '../SessionFeature.ts';
import { extensionsFeature } from './extensionsFeature.ts';
import { filesFeature } from './filesFeature.ts';
import { webdriverFeature } from './webdriverFeature.ts';

const EXTENSION = { id: 'e-1', name: 'marker', archive: new Uint8Array([1]), providerExtensionId: null };
const build = (version: string | null) => ({
  locate: async () => ({ path: '/chromium', source: 'config' as const, version }),
});

describe('the local provider’s session features', () => {
  it('extensions: a session without one is untouched; one with an extension runs cold with it, once its build is found', async () => {
    const located: string[] = [];
    const feature = extensionsFeature({
      locate: async () => {
        located.push('located');
        return { path: '/chromium', source: 'config' as const, version: null } as never;
      },
    });
    expect(await feature.prepare(browserRequest())).toEqual({});
    expect(located).toEqual([]);
    expect(await feature.prepare(browserRequest({ extensionId: 'e-1', extension: EXTENSION }))).toEqual({
      warmFits: false,
      extension: EXTENSION,
    });
    expect(located).toEqual(['located']);
  });

  it('extensions: a build that cannot be found refuses the create before anything is taken', async () => {
    const refusal = new Error('no full Chromium');
    const feature = extensionsFeature({ locate: () => Promise.reject(refusal) });
    await expect(feature.prepare(browserRequest({ extensionId: 'e-1', extension: EXTENSION }))).rejects.toBe(
      refusal,
    );
  });

  it('webdriver: a seleniumRemoteUrl only with a chromedriver, and for an extension’s build only on the same major version', async () => {
    const browsers = {
      ready: async () => {},
      browserBuild: async () => ({ version: 'Chromium 156.0.7000.1' }) as never,
    };
    const paired = (driver: string | null, extensionsVersion: string | null) =>
      webdriverFeature({
        webdriver: { chromedriver: async () => driver },
        browsers,
        extensionsBuild: build(extensionsVersion) as never,
      });
    const withExtension = browserRequest({ extensionId: 'e-1', extension: EXTENSION });
    expect(await paired('/usr/bin/chromedriver', null).prepare(browserRequest())).toEqual({
      webdriver: true,
    });
    expect(await paired(null, null).prepare(browserRequest())).toEqual({ webdriver: false });
    expect(await paired('/d', 'Chromium 156.0.7001.2').prepare(withExtension)).toEqual({ webdriver: true });
    expect(await paired('/d', 'Chromium 155.0.7001.2').prepare(withExtension)).toEqual({ webdriver: false });
  });

  it('files: the session’s downloads are held for the account that owns its project', async () => {
    const held: Array<[string, string]> = [];
    const feature = filesFeature({
      hold: (id, ownerId) => {
        held.push([id, ownerId]);
        return async () => {};
      },
    });
    const plan = await feature.prepare(browserRequest({ ownerId: 'owner-7' }));
    plan.holdDownloads?.('psid-1');
    expect(held).toEqual([['psid-1', 'owner-7']]);
  });

  it('merges plans: warm only when every feature allows it, the one extension, every route, WebDriver when any says so', () => {
    const route = { label: 'up', pattern: null } as never;
    expect(mergePlans([{}, { routes: [route] }, { webdriver: true }])).toMatchObject({
      warmFits: true,
      extension: null,
      routes: [route],
      webdriver: true,
    });
    expect(mergePlans([{ warmFits: false, extension: EXTENSION }, { webdriver: false }])).toMatchObject({
      warmFits: false,
      extension: EXTENSION,
      webdriver: false,
    });
  });
});
