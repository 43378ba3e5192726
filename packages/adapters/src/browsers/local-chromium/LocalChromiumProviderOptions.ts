import type { Clock, Logger } from '@browserdeck/domain';
import type { IsolationSetting } from '../../confinement/isolation/IsolationLevel.ts';
import type { HostResources } from '../../confinement/limits/hostResources.ts';
import type { NetworkCaptures } from '../cdp/network/NetworkCaptures.ts';
import type { Recordings } from '../cdp/recording/Recordings.ts';
import type { EgressPolicyOptions } from '../egress/EgressPolicy.ts';
import type { BlobStore } from '../shared-state/BlobStore.ts';
import type { ContextRecords } from '../shared-state/ContextRecords.ts';
import type { SessionShares } from '../shared-state/SessionShares.ts';
import type { FindChromiumOptions } from './chromium/findChromium.ts';

/** The defaults of the optional settings below that are plain numbers. */
export const LOCAL_DEFAULTS = {
  /** Clients connected to one session at once: a driver, a few tools and reconnects. */
  maxConnectionsPerSession: 8,
  maxContextsPerProject: 100,
  endedSessionRetention: 1000,
  endedLogRetention: 100,
  /** The logs of ended sessions kept together (JSON bytes). */
  endedLogMaxBytes: 64 * 1024 * 1024,
  /** How long after a warm browser is handed out its replacement starts (clear of the first connection). */
  warmRefillDelayMs: 100,
} as const;

/** How the local provider is set up (http-api.md §9: `PUBLIC_URL`, `DATA_DIR`, `CHROMIUM_PATH`, `LOCAL_*`). */
export interface LocalChromiumProviderOptions {
  /** Base of the `connectUrl`s handed out (`http:` → `ws:`, `https:` → `wss:`; a path is kept). */
  readonly publicUrl: string;
  /** Persistent context profiles live in `<dataDir>/contexts/<projectId>/<contextId>`; browsers never see this folder. */
  readonly dataDir: string;
  /** The browser to run; when absent, `CHROMIUM_PATH`, the npm package's headless shell, else a system browser (docs/adr/0016). */
  readonly chromiumPath?: string | undefined;
  /**
   * The full Chromium sessions with an extension run (`CHROMIUM_EXTENSIONS_PATH`; null: none, such
   * sessions are refused). When absent: `CHROMIUM_EXTENSIONS_PATH`, else the main build when it is
   * configured and not a headless shell, else Debian's `/usr/lib/chromium/chromium` when installed
   * (docs/adr/0025). Such sessions always launch cold.
   */
  readonly extensionsChromiumPath?: string | null | undefined;
  /**
   * The chromedriver behind sessions' `seleniumRemoteUrl` (`CHROMEDRIVER_PATH`); when absent,
   * `/usr/bin/chromedriver`, else `chromedriver` on `PATH`. It must have the browser's major version,
   * or `seleniumRemoteUrl` is null (docs/adr/0023).
   */
  readonly chromedriverPath?: string | undefined;
  /**
   * Most browsers at once (`LOCAL_MAX_SESSIONS`): running sessions plus warm browsers. Default: what
   * the host holds, the lower of 2 a core and (memory − 1 GiB − 10 %) ÷ 512 MiB, at least 1
   * (`resolveSessionCapacity`); said at start-up.
   */
  readonly maxSessions?: number | undefined;
  /**
   * The cores and memory the defaults (`maxSessions`, `browserMemoryMb`) are sized from. Default:
   * this machine's, lowered to its cgroup's limits (`readHostResources`). Tests inject it.
   */
  readonly hostResources?: HostResources | undefined;
  /** Browsers kept started ahead (`LOCAL_WARM_BROWSERS`); they yield their slots to sessions. */
  readonly warmBrowsers: number;
  /**
   * How long after a warm browser is handed out its replacement starts (default 100 ms, sooner when a
   * session is released): a launch shares the cores and the event loop with the new session's first
   * connection (docs/benchmarks.md §10).
   */
  readonly warmRefillDelayMs?: number | undefined;
  /**
   * Most sessions one account holds at once (`LOCAL_MAX_SESSIONS_PER_OWNER`; default half of
   * `maxSessions`, at least 1; above a host-sized `maxSessions`, lowered to it), so one tenant
   * cannot take every slot: counted per project owner
   * (`CreateBrowserRequest.ownerId`), whichever of its projects and credentials asked.
   */
  readonly maxSessionsPerOwner?: number | undefined;
  /**
   * Where the account's share (`maxSessionsPerOwner`) is counted across the instances sharing a
   * database (SPEC §16): the composition passes the storage's (`MikroOrmSessionShares`). Default: in
   * memory, this instance's sessions only.
   */
  readonly sessionShares?: SessionShares | undefined;
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
  /**
   * A session's log budget in JSON bytes (`LOCAL_SESSION_LOG_MAX_MB`; default 8 MiB): past it the
   * oldest entries go first, and one entry says how many. Each entry is cut to 16 KiB.
   */
  readonly sessionLogMaxBytes?: number | undefined;
  /**
   * Clients connected to one session's `connectUrl` at once (`LOCAL_MAX_CONNECTIONS_PER_SESSION`;
   * default 8); one more is refused with 429 `rate_limited`. In-process clients (the live view's one
   * connection per session) do not count.
   */
  readonly maxConnectionsPerSession?: number | undefined;
  /**
   * Where contexts and their profiles live for every instance on one database (SPEC §16): the
   * composition passes the storage's records and blobs. Without both, contexts are folders of this
   * instance's data folder.
   */
  readonly contextRecords?: ContextRecords | undefined;
  /**
   * Where sessions' network is captured for their HAR (SPEC §18), read by any instance: the
   * composition's, on the storage's blobs. Absent: no capture, and no `network` capability.
   */
  readonly networkCaptures?: NetworkCaptures | undefined;
  /**
   * Where sessions are recorded (SPEC §18), read by any instance: the composition's, on the
   * storage's blobs. Absent: no recording, and no `recording` capability.
   */
  readonly recordings?: Recordings | undefined;
  /** Bytes every instance must read (context profiles): the storage's. */
  readonly blobs?: BlobStore | undefined;
  /**
   * Where ended sessions' downloads are copied for the other instances to serve (the storage's
   * blobs, when several instances share the database); without it they are this instance's only.
   */
  readonly downloadBlobs?: BlobStore | undefined;
  /** Largest stored context profile, zipped (`CONTEXT_MAX_MB`; default 64 MiB): a larger save is not stored. */
  readonly contextMaxBytes?: number | undefined;
  /** Context profiles one project may hold (`LOCAL_MAX_CONTEXTS_PER_PROJECT`; default 100): one more is `context_limit_reached`. */
  readonly maxContextsPerProject?: number | undefined;
  /** The logs of all ended sessions kept together, in JSON bytes (`LOCAL_ENDED_LOGS_MAX_MB`; default 64 MiB). */
  readonly endedLogMaxBytes?: number | undefined;
  /**
   * How long an ended session's downloads are kept, in seconds (`DOWNLOADS_RETENTION_SEC`; default
   * 3600; 0: they go with the session): moved to `<dataDir>/downloads/<providerSessionId>/` when it
   * ends, served as its zip until then.
   */
  readonly downloadsRetentionSec?: number | undefined;
  /**
   * All ended sessions' kept downloads together, in bytes (`DOWNLOADS_MAX_MB`; default 1 GiB): the
   * ceiling of every account's share; past it the oldest of the account holding the most go first.
   * A running session's downloads are bounded by its disk (`sessionDiskMb`) instead.
   */
  readonly downloadsMaxBytes?: number | undefined;
  /**
   * One account's kept downloads, in bytes (`DOWNLOADS_MAX_MB_PER_OWNER`; default half of
   * `downloadsMaxBytes`, at most it): past it that account's oldest go first, never another's.
   */
  readonly downloadsMaxBytesPerOwner?: number | undefined;
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
  /**
   * Memory limit of each browser's whole process tree in MiB, tmpfs it writes included, no swap
   * beyond it (`LOCAL_BROWSER_MEMORY_MB`; 0: none). At the limit the kernel kills it and its session
   * ends `ERROR`. Default min(2048, 80% of the host's memory / `maxSessions`), at least 256. See `limits/`.
   */
  readonly browserMemoryMb?: number | undefined;
  /** Most tasks (processes and threads) of each browser (`LOCAL_BROWSER_PIDS`; 0: none; default 512). */
  readonly browserPids?: number | undefined;
  /** CPU weight of each browser against the others, 1 to 10000 (`LOCAL_BROWSER_CPU_WEIGHT`; 0: none; default 100). */
  readonly browserCpuWeight?: number | undefined;
  /**
   * Size in MiB of each session's writable space: its profile with Downloads (a tmpfs; needs root),
   * the sandbox's `/tmp` and `/dev/shm` (`LOCAL_SESSION_DISK_MB`; 0: none; default min(512, a
   * quarter of the memory limit)).
   */
  readonly sessionDiskMb?: number | undefined;
  /** Where else to look for a browser (environment, system paths, npm fallback); tests narrow it. */
  readonly chromiumSearch?: Omit<FindChromiumOptions, 'chromiumPath' | 'chromedriverPath'>;
}

/** The options with the capacity and the host resolved: what the provider's parts are built from. */
export type SizedLocalOptions = LocalChromiumProviderOptions & {
  readonly maxSessions: number;
  readonly maxSessionsPerOwner: number;
  readonly hostResources: HostResources;
};
