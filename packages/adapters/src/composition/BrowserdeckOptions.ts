import type { AuthRateLimits, Clock, IdentityProvider, IdGenerator, SignupMode } from '@browserdeck/domain';
import type { Logger } from 'pino';
import type { BrowserbaseProviderDeps } from '../browsers/browserbase/BrowserbaseProvider.ts';
import type { LocalChromiumProviderOptions } from '../browsers/local-chromium/LocalChromiumProviderOptions.ts';
import type { ComposableBrowserProvider } from '../browsers/ProviderCapabilities.ts';
import type { SeleniumGridProviderOptions } from '../browsers/selenium-grid/SeleniumGridProviderOptions.ts';
import type { IsolationSetting } from '../confinement/isolation/IsolationLevel.ts';
import type { HttpSettings } from '../http/koa/HttpAppDeps.ts';
import type { MetricsRegistry } from '../observability/MetricsRegistry.ts';
import type { BrowserdeckOrm } from '../persistence/mikro-orm/BrowserdeckOrm.ts';
import type { BrowserdeckOverrides } from './BrowserdeckOverrides.ts';
import type { BrowserdeckStorage } from './BrowserdeckStorage.ts';

/**
 * The database: a URL the composition opens, migrates and closes (`sqlite:…`, `postgres://…`); a
 * MikroORM instance the host opened, migrated and closes itself; or ready-made storage (e.g. the
 * domain's in-memory ports in tests). On PostgreSQL (a URL or an ORM) runs are queued through pg-boss
 * and shared by every instance; otherwise in this process.
 */
export type DatabaseOption = { url: string } | { orm: BrowserdeckOrm } | { storage: BrowserdeckStorage };

/** Local identity settings: users, argon2id credentials and EdDSA tokens in Browserdeck's database. */
export interface LocalIdentityOptions {
  /** PEM of an Ed25519 private key; default: `jwt-ed25519.pem` in the data folder, made once. */
  jwtPrivateKeyPem?: string | undefined;
  accessTokenTtlSec?: number | undefined;
  refreshTokenTtlSec?: number | undefined;
}

/** Supabase Auth (GoTrue) settings. */
export interface SupabaseIdentityOptions {
  url: string;
  anonKey: string;
  /** HS256 secret of older projects; without it, tokens are checked against the project's JWKS. */
  jwtSecret?: string | undefined;
}

/** The identity provider: local (default), Supabase Auth, or one the host built. */
export type IdentityOption =
  | { local: LocalIdentityOptions }
  | { supabase: SupabaseIdentityOptions }
  | { provider: IdentityProvider };

/** Local Chromium settings; the composition supplies the data folder, public URL, clock and logger. */
export type LocalBrowsersOptions = Partial<
  Omit<LocalChromiumProviderOptions, 'dataDir' | 'publicUrl' | 'clock' | 'logger'>
>;

/**
 * Selenium Grid settings (`SELENIUM_GRID_URL`, `SELENIUM_GRID_HEADERS`); the composition supplies the
 * public URL, this instance's id, the clock and the logger.
 */
export type SeleniumGridBrowsersOptions = Omit<
  SeleniumGridProviderOptions,
  'publicUrl' | 'instanceId' | 'clock' | 'logger'
>;

/** The browser provider: local Chromium (default), Browserbase, a Selenium Grid, or one the host built. */
export type BrowsersOption =
  | { local: LocalBrowsersOptions }
  | { browserbase: Omit<BrowserbaseProviderDeps, 'clock' | 'logger'> }
  | { seleniumGrid: SeleniumGridBrowsersOptions }
  | { provider: ComposableBrowserProvider };

/** Sessions' recordings (SPEC §18), for the providers Browserdeck records itself (local, Selenium Grid). */
export interface RecordingsOptions {
  /** Record sessions unless a create switches it off (`RECORD_SESSIONS`; default true). */
  enabled?: boolean | undefined;
  /** The largest recording of one session, in bytes of frames (`RECORDING_MAX_MB`; default 200 MiB). */
  maxBytesPerSession?: number | undefined;
  /** All recordings together, in bytes (`RECORDINGS_MAX_GB`; default 20 GiB). */
  maxTotalBytes?: number | undefined;
  /**
   * One account's recordings, in bytes (`RECORDINGS_MAX_GB_PER_OWNER`; default half the total): past
   * it the account's own oldest go first, never another account's.
   */
  maxBytesPerOwner?: number | undefined;
  /** Days a recording is kept after its session ended (`RECORDINGS_RETENTION_DAYS`; default 7). */
  retentionDays?: number | undefined;
  /** The most frames a second kept per tab (default 10). */
  maxFps?: number | undefined;
  /** Debian's `ffmpeg`, which makes the videos (`FFMPEG_PATH`; default `ffmpeg` on the PATH). */
  ffmpegPath?: string | undefined;
}

/** Sign-up, operators and the audit log (SPEC §17). */
export interface AccessOptions {
  /** `open` (default): anyone signs up; `invite`: with an invitation token; `closed`: operators' invitations only (`SIGNUP`). */
  signup?: SignupMode | undefined;
  /** The operators' e-mails (`ADMIN_EMAILS`); none by default. */
  adminEmails?: readonly string[] | undefined;
  /** Days audit entries are kept (`AUDIT_RETENTION_DAYS`; default 90). */
  auditRetentionDays?: number | undefined;
}

/** Runs (http-api.md §11): whether this instance executes them, how many at once, their limits. */
export interface RunsOptions {
  /**
   * Whether this instance takes runs from the queue (default true). False makes it API-only: on
   * PostgreSQL other instances execute its runs; on SQLite nothing does. Lost runs are swept either way.
   */
  worker?: boolean | undefined;
  /** Runs executed at once on this instance (`RUN_CONCURRENCY`; default 2). */
  concurrency?: number | undefined;
  /**
   * Runs of one account executed at once (`RUN_MAX_ACTIVE_PER_OWNER`; default half of
   * `concurrency`, at least 1, so another account finds room): on PostgreSQL over every instance.
   */
  maxActivePerOwner?: number | undefined;
  /** Runs one account may have queued; past them a create is 429 `run_queue_full` (`RUN_MAX_QUEUED_PER_OWNER`; default 100). */
  maxQueuedPerOwner?: number | undefined;
  /** Log streams and `wait` long polls one account holds open at once on this instance (`RUN_MAX_WAITERS_PER_OWNER`; default 16). */
  maxWaitersPerOwner?: number | undefined;
  /** Heap cap of each run's process, in MiB (`RUN_MEMORY_MB`; default 256). */
  memoryMb?: number | undefined;
  /** Log bytes a run keeps; past them one `system` line says so (`RUN_MAX_LOG_BYTES`; default 8 MiB). */
  maxLogBytes?: number | undefined;
  /**
   * Days a run and its logs are kept after it ended (`RUN_RETENTION_DAYS`, 1 to 3650; default 30):
   * then a sweep that `start()` starts (a minute after, then hourly) deletes them, in batches.
   */
  retentionDays?: number | undefined;
  /** How long running runs may go on at `close` before they are canceled, in seconds (default 5). */
  shutdownGraceSec?: number | undefined;
  /** Where each run's temporary folder is made (default `<dataDir>/runs`; no `:`). */
  dir?: string | undefined;
  /**
   * How run processes are confined (`LOCAL_ISOLATION`): as local browsers; default the local
   * browsers' setting, else `on`. `off` leaves only Node's permission model (development only).
   */
  isolation?: IsolationSetting | undefined;
  /** Who run processes run as when the service is root (`BROWSER_USER`); default the local browsers'. */
  user?: string | undefined;
  /**
   * Run processes started ahead of demand, ready for the next runs (`RUN_WARM_RUNNERS`, 0 to 64;
   * default `concurrency`, so runs started together all find one). None when `worker` is false.
   */
  warmRunners?: number | undefined;
}

/** What `createBrowserdeck` takes. Every field has a default that fits an app embedding Browserdeck. */
export interface BrowserdeckOptions {
  /**
   * Keys, the default SQLite database and local browser profiles live here; it is made private
   * (0700, its files 0600). Default `./data`.
   */
  dataDir?: string | undefined;
  /** Default: SQLite at `<dataDir>/browserdeck.sqlite`. */
  database?: DatabaseOption | undefined;
  /** Default: `{ local: {} }`. */
  identity?: IdentityOption | undefined;
  /** Default: `{ local: {} }`. */
  browsers?: BrowsersOption | undefined;
  /**
   * Where clients reach this API, with the prefix a host mounts it under (e.g.
   * `https://app.example.com/browserdeck`): local sessions' `connectUrl`s are built from it.
   * Default `http://127.0.0.1:3000`, whose scheme and host a proxy that `http.trustProxy` trusts may
   * then replace per request (`http.publicUrlFromProxy`, on by default only when this is absent).
   */
  publicUrl?: string | undefined;
  /** Seals secrets at rest and signs log cursors (base64 of 32 bytes, or any passphrase); default: `secret.key` in the data folder, made once. */
  secretKey?: string | undefined;
  /** Default: pino at `info` on standard output. */
  logger?: Logger | undefined;
  clock?: Clock | undefined;
  ids?: IdGenerator | undefined;
  /** Where request, provider and session metrics are recorded; a new registry when absent. */
  metrics?: MetricsRegistry | undefined;
  /** Sign-in and sign-up attempts a minute; the contract's defaults when absent. */
  rateLimits?: AuthRateLimits | undefined;
  /** Projects one account may hold, archived ones included (`MAX_PROJECTS_PER_USER`; default 100). */
  maxProjectsPerUser?: number | undefined;
  /** Who may make an account, who the operators are, how long the audit log is kept (SPEC §17). */
  access?: AccessOptions | undefined;
  /** Largest file one session upload takes, in bytes (`UPLOAD_MAX_MB`; default 50 MiB). */
  uploadMaxBytes?: number | undefined;
  /** Sessions' recordings: on by default where the storage holds blobs (SPEC §18). */
  recordings?: RecordingsOptions | undefined;
  /** CORS origins, request cut-off, proxy trust and `/metrics` access. */
  http?: HttpSettings | undefined;
  /** Seconds between passes that refresh active sessions from the provider (`start()`). Default 15. */
  reconcileIntervalSec?: number | undefined;
  /**
   * Seconds between the stores of the proxy bytes the provider metered (`PROXY_BYTES_FLUSH_SEC`;
   * `start()`), so a crash loses at most this much of the count. Default 5.
   */
  proxyBytesFlushSec?: number | undefined;
  /**
   * This server instance among those sharing the database (docs/scaling.md): its id
   * (`LOCAL_INSTANCE_ID`; default kept in `<dataDir>/instance-id`, so a restart is the same instance)
   * and where the others reach it (`INSTANCE_URL`; default `publicUrl`).
   */
  instance?: { id?: string | undefined; url?: string | undefined } | undefined;
  /** Runs: the worker of this instance and the runs' limits. Default: a worker of 2 runs at once. */
  runs?: RunsOptions | undefined;
  /**
   * Parts to use instead of what the composition builds: use cases by feature, the HTTP app's
   * database hooks and settings, the live-view hub. For tests (a use case that throws, to check a
   * fault) and for hosts that wrap a use case. Default: none.
   */
  overrides?: BrowserdeckOverrides | undefined;
}
