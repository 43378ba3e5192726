import type { PolicyDecision } from '../cdp/cdpCommandPolicy.ts';
import type { WebDriverSessionIds } from './planWebDriverCommand.ts';

/** Where a session's WebDriver commands go, and what they may do there. */
export interface WebDriverUpstream extends WebDriverSessionIds {
  /** The WebDriver server's base URL, which commands' paths follow: chromedriver's, the Grid's. */
  readonly baseUrl: string;
  /**
   * The capabilities of the browser's WebDriver session, as its server answered them when the
   * session was made (chromedriver's attach, the Grid's new session): what a `POST /session` is
   * matched against and answered with.
   */
  readonly capabilities: Readonly<Record<string, unknown>>;
  /** Headers added to every request sent on (a Grid behind authentication); the client's credentials are never sent. */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** The session's CDP command policy, for DevTools commands sent through WebDriver (`goog/cdp/execute`). */
  checkCdp(raw: string): PolicyDecision;
}
