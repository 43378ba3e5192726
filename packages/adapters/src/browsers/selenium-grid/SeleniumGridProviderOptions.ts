import type { Clock, Logger } from '@browserdeck/domain';
import type { NetworkCaptures } from '../cdp/network/NetworkCaptures.ts';
import type { Recordings } from '../cdp/recording/Recordings.ts';

/** The defaults of the optional settings below. */
export const SELENIUM_GRID_DEFAULTS = {
  /** The one region sessions are created in (the Grid decides on which node). */
  regions: ['grid'] as readonly string[],
  /** How long a create waits for the Grid's new session, its queue included (ms). */
  newSessionTimeoutMs: 60_000,
  /** How long any other Grid request may take (ms). */
  requestTimeoutMs: 10_000,
  /**
   * How often a running session is shown to the Grid (a WebDriver read), so the Grid's idle
   * `--session-timeout` (default 300 s) does not end a session driven only over CDP; it also notices
   * a session the Grid lost (ms).
   */
  keepAliveIntervalMs: 60_000,
  /** Clients connected to one session at once, as the local provider's default. */
  maxConnectionsPerSession: 8,
  /** Ended sessions whose final state and logs `get` and `logs` still report. */
  endedSessionRetention: 1000,
  endedLogRetention: 100,
  endedLogMaxBytes: 64 * 1024 * 1024,
  /** A session's log budget (JSON bytes), each entry cut to 16 KiB. */
  sessionLogMaxBytes: 8 * 1024 * 1024,
} as const;

/** How the Selenium Grid provider is set up (http-api.md §15: `SELENIUM_GRID_URL`, `SELENIUM_GRID_HEADERS`). */
export interface SeleniumGridProviderOptions {
  /** The Grid's router (or standalone) URL, e.g. `http://selenium-hub:4444` (a path such as `/wd/hub` is kept). */
  readonly gridUrl: string;
  /**
   * Extra headers on every request to the Grid, WebSocket handshakes included (a Grid behind an
   * authenticating proxy: `Authorization`, …). Never logged, never in an error's detail.
   */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** Base of the `connectUrl`s handed out (`http:` → `ws:`, `https:` → `wss:`; a path is kept). */
  readonly publicUrl: string;
  /**
   * This server instance's id, stamped on every snapshot: a session's CDP proxy, log recorder and
   * timers live in the process that created it (`BrowserProvider.instanceId`).
   */
  readonly instanceId: string;
  readonly clock: Clock;
  readonly logger?: Logger | undefined;
  /** Region codes accepted, the first the default (default `['grid']`). */
  readonly regions?: readonly string[] | undefined;
  /** Extra Chromium arguments for every session (e.g. `--no-sandbox` for nodes that run as root). */
  readonly chromeArgs?: readonly string[] | undefined;
  /**
   * Extra W3C capabilities merged into every new-session request (`platformName`, `se:recordVideo`, a
   * node selector of your Grid, …); the ones Browserdeck needs (`browserName`, `se:cdpEnabled`,
   * `goog:chromeOptions` args) win.
   */
  readonly capabilities?: Readonly<Record<string, unknown>> | undefined;
  /** How long a create waits for the Grid, its queue included (default 60 s): past it `provider_timeout`. */
  readonly newSessionTimeoutMs?: number | undefined;
  /** How long any other Grid request may take (default 10 s). */
  readonly requestTimeoutMs?: number | undefined;
  /** How often a running session is shown to the Grid (default 60 s; keep it under the Grid's `--session-timeout`). */
  readonly keepAliveIntervalMs?: number | undefined;
  /** Clients connected to one session's `connectUrl` at once (default 8); one more is 429 `rate_limited`. */
  readonly maxConnectionsPerSession?: number | undefined;
  /** A session's log budget in JSON bytes (default 8 MiB). */
  readonly sessionLogMaxBytes?: number | undefined;
  /**
   * Where sessions' network is captured for their HAR (SPEC §18), read by any instance: the
   * composition's. Absent: no capture, and no `network` capability.
   */
  readonly networkCaptures?: NetworkCaptures | undefined;
  /** Where sessions are recorded (SPEC §18): the composition's. Absent: no recording. */
  readonly recordings?: Recordings | undefined;
  /** Shortest timeout honoured; shorter requests are raised to it (default 60; tests use less). */
  readonly minTimeoutSec?: number | undefined;
  /** Ended sessions whose final state `get` still reports (default 1000). */
  readonly endedSessionRetention?: number | undefined;
  /** Ended sessions whose logs are still kept (default 100). */
  readonly endedLogRetention?: number | undefined;
  /** The logs of all ended sessions kept together, in JSON bytes (default 64 MiB). */
  readonly endedLogMaxBytes?: number | undefined;
}
