import type { Clock, Logger } from '@browserdeck/domain';
import type { FindChromiumOptions } from './findChromium.ts';

/** How the local provider is set up (SPEC §9: `PUBLIC_URL`, `DATA_DIR`, `CHROMIUM_PATH`, `LOCAL_*`). */
export interface LocalChromiumProviderOptions {
  /** Base of the `connectUrl`s handed out (`http:` → `ws:`, `https:` → `wss:`; a path is kept). */
  readonly publicUrl: string;
  /** Persistent context profiles live in `<dataDir>/contexts/<contextId>`. */
  readonly dataDir: string;
  /** The browser to run; when absent, `CHROMIUM_PATH`, a system browser, then `@sparticuz/chromium`. */
  readonly chromiumPath?: string | undefined;
  /** Most browsers at once (`LOCAL_MAX_SESSIONS`): running sessions plus warm browsers. */
  readonly maxSessions: number;
  /** Browsers kept started ahead (`LOCAL_WARM_BROWSERS`); they yield their slots to sessions. */
  readonly warmBrowsers: number;
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
  /** Where else to look for a browser (environment, system paths, npm fallback); tests narrow it. */
  readonly chromiumSearch?: Omit<FindChromiumOptions, 'chromiumPath'>;
}
