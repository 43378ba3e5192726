import { majorVersion } from '../../chromium/majorVersion.ts';
import type { ExtensionsChromium } from '../../extensions/ExtensionsChromium.ts';
import type { BrowserSupply } from '../../launch/BrowserSupply.ts';
import type { LocalWebDriver } from '../../webdriver/LocalWebDriver.ts';
import type { SessionFeature } from '../SessionFeature.ts';

/**
 * WebDriver: a session gets a `seleniumRemoteUrl` when a chromedriver pairs with the build it runs.
 * chromedriver is paired with the main build: it serves an extension session's build only when that
 * has the same major version. Its chromedriver starts on the session's first WebDriver request.
 */
export function webdriverFeature(deps: {
  webdriver: Pick<LocalWebDriver, 'chromedriver'>;
  browsers: Pick<BrowserSupply, 'ready' | 'browserBuild'>;
  extensionsBuild: Pick<ExtensionsChromium, 'locate'>;
}): SessionFeature {
  return {
    name: 'webdriver',
    async prepare(request) {
      await deps.browsers.ready();
      if ((await deps.webdriver.chromedriver()) === null) return { webdriver: false };
      if (!request.extension) return { webdriver: true };
      const [extensions, main] = await Promise.all([
        deps.extensionsBuild.locate(),
        deps.browsers.browserBuild(),
      ]);
      return { webdriver: sameMajorVersion(extensions.version, main.version) };
    },
  };
}

function sameMajorVersion(a: string | null, b: string | null): boolean {
  const major = majorVersion(a);
  return major !== null && major === majorVersion(b);
}
