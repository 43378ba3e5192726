import type { Clock, Logger } from '@browserdeck/domain';
import type { EgressPolicyOptions } from './egress/EgressPolicy.ts';
import type { FindChromiumOptions } from './findChromium.ts';
import type { IsolationSetting } from './isolation/BrowserConfinement.ts';

/** How the local provider is set up (http-api.md §9: `PUBLIC_URL`, `DATA_DIR`, `CHROMIUM_PATH`, `LOCAL_*`). */
export interface LocalChromiumProviderOptions {
  /** Base of the `connectUrl`s handed out (`http:` → `ws:`, `https:` → `wss:`; a path is kept). */
  readonly publicUrl: string;
  /** Persistent context profiles live in `<dataDir>/contexts/<projectId>/<contextId>`; browsers never see this folder. */
  readonly dataDir: string;
  /** The browser to run; when absent, `CHROMIUM_PATH`, a system browser, then `@sparticuz/chromium`. */
  readonly chromiumPath?: string | undefined;
  /** Most browsers at once (`LOCAL_MAX_SESSIONS`): running sessions plus warm browsers. */
  readonly maxSessions: number;
  /** Browsers kept started ahead (`LOCAL_WARM_BROWSERS`); they yield their slots to sessions. */
  readonly warmBrowsers: number;
  /**
   * Most sessions one project holds at once (`LOCAL_MAX_SESSIONS_PER_PROJECT`; default half of
   * `maxSessions`, at least 1), so one tenant cannot take every slot.
   */
  readonly maxSessionsPerProject?: number | undefined;
  /** `LOCAL_ISOLATION` (default `on`: the strongest level this host supports; see `BrowserConfinement`). */
  readonly isolation?: IsolationSetting | undefined;
  /** `BROWSER_USER`: who browsers run as (default: `browserdeck-browser`, created when the service is root). */
  readonly browserUser?: string | undefined;
  /** Folders browsers must never see besides `dataDir` (default: the working folder and the main module's folder). */
  readonly hiddenPaths?: readonly string[] | undefined;
  /**
   * What browsers may reach beyond the public internet (`EGRESS_ALLOW_PRIVATE`, `EGRESS_ALLOW`,
   * `EGRESS_DENY`); every local browser goes through an egress proxy that applies it.
   */
  readonly egress?: Omit<EgressPolicyOptions, 'ownAddresses'> | undefined;
  /** Log entries kept per session; the newest win (default 1000). */
  readonly logBufferSize?: number;
  readonly clock: Clock;
  /** Shortest timeout honoured; shorter requests are raised to it (default 60; tests use less). */
  readonly minTimeoutSec?: number;
  readonly logger?: Logger;
  /** Parent of the temporary profile folders (default the OS temporary folder). */
  readonly tempDir?: string;
  /** Ended sessions whose final state `get` still reports (default 1000). */
  readonly endedSessionRetention?: number;
  /** Ended sessions whose logs are still kept (default 100). */
  readonly endedLogRetention?: number;
  /**
   * This provider's id among the server instances sharing one database (default: a random UUID per
   * provider). Every session it starts is stored with it, and another instance leaves such a
   * session alone (`BrowserProvider.instanceId`). Give each running instance its own; a stable one
   * (e.g. per host or pod) lets a restarted instance recognise its earlier sessions, whose browsers
   * stopped with it, and end them at once instead of when they expire.
   */
  readonly instanceId?: string | undefined;
  /** Where else to look for a browser (environment, system paths, npm fallback); tests narrow it. */
  readonly chromiumSearch?: Omit<FindChromiumOptions, 'chromiumPath'>;
}
