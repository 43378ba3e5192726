import { checkCdpCommand } from '../../cdp/cdpCommandPolicy.ts';
import type { WebDriverUpstream } from '../../webdriver/serveWebDriverCommand.ts';
import type { LocalBrowserSession } from '../session/LocalBrowserSession.ts';
import { Chromedriver } from './Chromedriver.ts';
import { DevToolsBridge } from './DevToolsBridge.ts';

/**
 * One local session's WebDriver server, started on its first WebDriver request: a `DevToolsBridge`
 * to its browser and a `Chromedriver` attached to it. Concurrent first requests share one start; a
 * start that failed, or a chromedriver that died, is started again by the next request. It is held
 * by the session like an in-process client, so the session's end stops it (`close`).
 */
export class SessionWebDriver {
  private readonly session: LocalBrowserSession;
  private readonly chromedriverPath: string;
  private started: Promise<{ bridge: DevToolsBridge; driver: Chromedriver }> | null = null;
  private closed = false;

  constructor(session: LocalBrowserSession, chromedriverPath: string, onClosed: () => void) {
    this.session = session;
    this.chromedriverPath = chromedriverPath;
    let letGo = (): void => {};
    letGo = session.holdInProcessClient({
      close: () => {
        letGo();
        void this.close().finally(onClosed);
      },
    });
  }

  /** Where the session's WebDriver commands go, starting its WebDriver server on first use. */
  async upstream(): Promise<WebDriverUpstream> {
    if (this.closed) throw new Error('the session has ended');
    if (!this.started) {
      const start = this.start();
      this.started = start;
      const forget = () => {
        if (this.started === start) this.started = null;
      };
      // A failed start, or a chromedriver that dies, is started again by the next request.
      start.then(
        ({ driver, bridge }) =>
          driver.exited.then(() => {
            if (this.started !== start) return;
            forget();
            void bridge.close();
          }),
        forget,
      );
    }
    const { driver } = await this.started;
    const { session } = this;
    return {
      baseUrl: driver.baseUrl,
      webdriverSessionId: driver.sessionId,
      capabilities: withPlatform(driver.capabilities),
      aliases: [session.id, session.browserdeckSessionId],
      checkCdp: (raw) => checkCdpCommand(raw, session.folders),
    };
  }

  /** Stops chromedriver and the bridge (the browser stays as it is). */
  async close(): Promise<void> {
    this.closed = true;
    const started = await this.started?.catch(() => null);
    this.started = null;
    if (!started) return;
    await Promise.all([started.driver.stop(), started.bridge.close()]);
  }

  private async start(): Promise<{ bridge: DevToolsBridge; driver: Chromedriver }> {
    const bridge = await DevToolsBridge.open({
      upstream: this.session.cdpUpstream,
      folders: this.session.folders,
    });
    try {
      const driver = await Chromedriver.start(this.chromedriverPath, bridge.address);
      if (!this.closed) return { bridge, driver };
      await driver.stop();
      throw new Error('the session has ended');
    } catch (error) {
      await bridge.close();
      throw error;
    }
  }
}

/** W3C's names of the platforms a local browser runs on, by Node's. */
const W3C_PLATFORMS: Readonly<Record<string, string>> = { linux: 'linux', darwin: 'mac', win32: 'windows' };

/**
 * chromedriver attached by `debuggerAddress` answers an empty `platformName`: the browser runs on
 * this host, so it is this host's platform (clients compare it with what they asked for).
 */
function withPlatform(capabilities: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> {
  if (capabilities.platformName) return capabilities;
  return { ...capabilities, platformName: W3C_PLATFORMS[process.platform] ?? process.platform };
}
