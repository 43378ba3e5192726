import type { Logger } from '@browserdeck/domain';
import type { PassthroughEndpoint } from '../../../shared/PassthroughEndpoint.ts';
import { webdriverEndpoint } from '../../webdriver/webdriverEndpoint.ts';
import type { LocatedChromium } from '../chromium/ChromiumLocator.ts';
import { chromiumVersion } from '../chromium/chromiumVersion.ts';
import {
  type FindChromedriverOptions,
  findChromedriver,
  HOW_TO_PROVIDE_CHROMEDRIVER,
} from '../chromium/findChromedriver.ts';
import { majorVersion } from '../chromium/majorVersion.ts';
import type { LocalBrowserSession } from '../session/LocalBrowserSession.ts';
import { SessionWebDriver } from './SessionWebDriver.ts';

/** What the local provider knows of a session id: its key digest, and the session while it runs. */
export type LocalSessionLookup = (
  providerSessionId: string,
) => { keyDigest: Buffer; running: LocalBrowserSession | null } | null;

/**
 * The local provider's WebDriver side (docs/adr/0023): whether this host has a chromedriver that
 * matches the browser build (its major version; found and logged once), the provider's WebDriver
 * endpoint (`seleniumRemoteUrl`), and each running session's WebDriver server, started on its first
 * WebDriver request and stopped when the session ends.
 */
export class LocalWebDriver {
  /** The sessions' WebDriver endpoint, for the HTTP adapter's route table. */
  readonly endpoint: PassthroughEndpoint;
  private readonly deps: {
    browserBuild: () => Promise<LocatedChromium>;
    chromedriver: FindChromedriverOptions;
    logger: Logger;
  };
  private readonly servers = new Map<string, SessionWebDriver>();
  private support: Promise<string | null> | null = null;

  constructor(deps: {
    /** The browser sessions run (`BrowserSupply.browserBuild`). */
    browserBuild: () => Promise<LocatedChromium>;
    chromedriver: FindChromedriverOptions;
    logger: Logger;
    lookup: LocalSessionLookup;
  }) {
    this.deps = deps;
    this.endpoint = webdriverEndpoint({
      providerName: 'local',
      operationId: 'driveLocalSession',
      lookup: (id) => {
        const known = deps.lookup(id);
        if (!known) return null;
        const running = known.running && !known.running.ended ? known.running : null;
        return { keyDigest: known.keyDigest, upstream: running && (() => this.upstreamOf(running)) };
      },
    });
  }

  /**
   * The chromedriver for sessions' WebDriver servers, when one of the browser's major version is
   * there; else null, logged once with what to install (sessions' `seleniumRemoteUrl` is then null).
   * Not remembered while no browser is found (one may be installed later).
   */
  chromedriver(): Promise<string | null> {
    this.support ??= this.pair();
    const search = this.support;
    search.catch(() => {
      if (this.support === search) this.support = null;
    });
    return search;
  }

  private async pair(): Promise<string | null> {
    const { logger } = this.deps;
    const browser = await this.deps.browserBuild();
    let path: string | null;
    try {
      path = await findChromedriver(this.deps.chromedriver);
    } catch (error) {
      logger.error?.(
        { err: error },
        `local provider: ${(error as Error).message} seleniumRemoteUrl is null.`,
      );
      return null;
    }
    if (!path) {
      logger.warn?.(
        { chromium: browser.path },
        `local provider: no chromedriver, so sessions' seleniumRemoteUrl is null. ${HOW_TO_PROVIDE_CHROMEDRIVER}`,
      );
      return null;
    }
    const version = await chromiumVersion(path);
    const [driverMajor, browserMajor] = [majorVersion(version), majorVersion(browser.version)];
    if (driverMajor === null || driverMajor !== browserMajor) {
      logger.warn?.(
        {
          chromedriver: path,
          chromedriverVersion: version,
          chromium: browser.path,
          chromiumVersion: browser.version,
        },
        `local provider: ${version ?? `chromedriver at ${path}`} does not match ${browser.version ?? 'the browser'} ` +
          `(${browser.path}), so sessions' seleniumRemoteUrl is null. ${HOW_TO_PROVIDE_CHROMEDRIVER}`,
      );
      return null;
    }
    logger.info?.(
      { chromedriver: path, chromedriverVersion: version },
      `local provider: sessions' seleniumRemoteUrl is served by ${version} from ${path}`,
    );
    return path;
  }

  private async upstreamOf(session: LocalBrowserSession) {
    const path = await this.chromedriver();
    if (!path) throw new Error(`no chromedriver matches this host's browser. ${HOW_TO_PROVIDE_CHROMEDRIVER}`);
    let server = this.servers.get(session.id);
    if (!server) {
      server = new SessionWebDriver(session, path, () => this.servers.delete(session.id));
      this.servers.set(session.id, server);
    }
    return server.upstream();
  }
}
