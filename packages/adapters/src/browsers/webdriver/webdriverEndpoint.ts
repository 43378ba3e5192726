import type { PassthroughEndpoint } from '../../shared/PassthroughEndpoint.ts';
import { PROVIDER_SESSION_ID } from '../cdp/connectUrl.ts';
import { signingKeyMatches } from '../cdp/signingKey.ts';
import { serveWebDriverCommand, type WebDriverUpstream } from './serveWebDriverCommand.ts';
import { writeW3cError } from './w3cError.ts';
import { webdriverPathTemplate } from './webdriverPath.ts';

/** What a provider knows of a session id for its WebDriver endpoint; null when it holds no such session. */
export type WebDriverLookup = (providerSessionId: string) => {
  /** The digest of the session's signing key (`digestSigningKey`). */
  keyDigest: Buffer;
  /**
   * While the session runs: where its commands go, once its WebDriver server is there (the local
   * provider starts a chromedriver on first use); null once it has ended.
   */
  upstream: (() => Promise<WebDriverUpstream>) | null;
} | null;

/**
 * A provider's WebDriver endpoint (`seleniumRemoteUrl`), a passthrough endpoint below
 * `webdriverPathTemplate(providerName)`: for a session this process holds, with its signing key, it
 * takes the request and `serveWebDriverCommand` answers it. Refused, for the host to answer: a
 * session it does not hold `not_found` (another instance may), a wrong key `unauthorized` (checked in
 * constant time; so is an `x-bb-signing-key` header, which Browserbase's Selenium clients send with
 * the session's key on every request), an ended session `session_ended`. When the session's
 * WebDriver server cannot be had, the request is answered with a W3C `unknown error` (503).
 */
export function webdriverEndpoint(options: {
  providerName: string;
  operationId: string;
  lookup: WebDriverLookup;
}): PassthroughEndpoint {
  return {
    path: webdriverPathTemplate(options.providerName),
    operationId: options.operationId,
    summary: 'Drive a session’s browser with W3C WebDriver (its seleniumRemoteUrl)',
    description:
      'The session’s `seleniumRemoteUrl` is the base URL of a W3C WebDriver server bound to that one ' +
      'session: a client appends the protocol’s paths (`/session/{session_id}/url`, …; any method) and ' +
      'names the session by its WebDriver id, its `providerSessionId` or its Browserdeck id. Another ' +
      'session id is `invalid session id` (404). A new session (`POST /session`, as ' +
      '`new Builder().usingServer(url).build()` and `webdriver.Remote(url, options)` send it) is answered ' +
      'with this session’s own WebDriver session (`{ value: { sessionId, capabilities } }`) when its ' +
      'browser honours the requested capabilities, else `session not created` (500) naming those it ' +
      'cannot; `DELETE /session/{session_id}` answers success and leaves the browser running (release ' +
      'the session to end it), so a next new session gets the same browser. DevTools commands ' +
      '(`goog/cdp/execute`) pass the same command policy as `connectUrl`. An `x-bb-signing-key` header ' +
      '(Browserbase’s Selenium clients send it) must be the session’s signing key. Answers and errors ' +
      'are WebDriver’s JSON (`{ value }`).',
    secretParams: ['signing_key'],
    serve({ req, res, params, subpath }) {
      const providerSessionId = params.provider_session_id ?? '';
      const known = PROVIDER_SESSION_ID.test(providerSessionId) ? options.lookup(providerSessionId) : null;
      if (!known) return { code: 'not_found', detail: 'No such session.' };
      if (!signingKeyMatches(params.signing_key, known.keyDigest))
        return { code: 'unauthorized', detail: 'Invalid signing key.' };
      const bbKey = req.headers['x-bb-signing-key'];
      if (bbKey !== undefined && !signingKeyMatches(String(bbKey), known.keyDigest))
        return {
          code: 'unauthorized',
          detail: 'The x-bb-signing-key header is not this session’s signing key.',
        };
      if (!known.upstream) return { code: 'session_ended', detail: 'The session has ended.' };
      known.upstream().then(
        (upstream) => serveWebDriverCommand(req, res, subpath, upstream),
        (error: unknown) => {
          req.resume();
          writeW3cError(
            res,
            503,
            'unknown error',
            `The session's WebDriver server is not available: ${(error as Error).message}`,
          );
        },
      );
      return true;
    },
  };
}
