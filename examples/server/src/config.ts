import { resolve } from 'node:path';
import { RESOURCE_LIMIT_BOUNDS } from '@browserdeck/adapters/local-chromium';
import {
  AUDIT_RETENTION_DAYS_DEFAULT,
  type AuthRateLimits,
  DEFAULT_AUTH_RATE_LIMITS,
  EMAIL_PATTERN,
  RUN_CONCURRENCY_DEFAULT,
  RUN_LOG_LINE_MAX_BYTES,
  RUN_MAX_LOG_BYTES_DEFAULT,
  RUN_MAX_QUEUED_PER_OWNER_DEFAULT,
  RUN_MAX_WAITERS_PER_OWNER_DEFAULT,
  RUN_MEMORY_MB_DEFAULT,
  RUN_RETENTION_DAYS_DEFAULT,
  RUN_RETENTION_DAYS_MAX,
  SIGNUP_MODES,
} from '@browserdeck/domain';
import { z } from 'zod';
import {
  browserLimit,
  egressList,
  gridHeaders,
  integer,
  listenAddress,
  metricsToken,
  optionalText,
  trustProxy,
} from './configFields.ts';

/** Environment variables of http-api.md §9, with their defaults. */
const EnvSchema = z.object({
  PORT: integer(0, 65535).default(3000),
  HOST: z.string().trim().min(1).default('127.0.0.1'),
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** Where the other instances reach this one (its internal routes, forwarded WebSockets); default HOST:PORT. */
  INSTANCE_URL: z.url({ protocol: /^https?$/ }).optional(),
  LOCAL_INSTANCE_ID: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1 to 64 letters, digits, _ or -')
    .optional(),
  DATA_DIR: z.string().trim().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .trim()
    .regex(
      /^(postgres(ql)?:\/\/|sqlite:|file:)/,
      'must start with postgres://, postgresql://, sqlite: or file:',
    )
    .optional(),
  IDENTITY_PROVIDER: z.enum(['local', 'supabase']).default('local'),
  SUPABASE_URL: z.url().optional(),
  SUPABASE_ANON_KEY: optionalText,
  SUPABASE_JWT_SECRET: optionalText,
  BROWSER_PROVIDER: z.enum(['local', 'browserbase', 'selenium-grid']).default('local'),
  BROWSERBASE_API_KEY: optionalText,
  BROWSERBASE_PROJECT_ID: optionalText,
  BROWSERBASE_BASE_URL: z.url().optional(),
  SELENIUM_GRID_URL: z.url({ protocol: /^https?$/ }).optional(),
  SELENIUM_GRID_HEADERS: gridHeaders,
  CHROMIUM_PATH: optionalText,
  // The full Chromium sessions with an extension run; `off` refuses them (docs/adr/0025).
  CHROMIUM_EXTENSIONS_PATH: optionalText,
  CHROMEDRIVER_PATH: optionalText,
  // Unset: what the host's cores and memory hold (the provider's; said at start-up).
  LOCAL_MAX_SESSIONS: integer(1, 1000).optional(),
  LOCAL_WARM_BROWSERS: integer(0, 100).default(1),
  // Default: half of LOCAL_MAX_SESSIONS, at least 1 (the provider's). The per-project name is the
  // old one: still read when the per-owner one is unset.
  LOCAL_MAX_SESSIONS_PER_OWNER: integer(1, 1000).optional(),
  LOCAL_MAX_SESSIONS_PER_PROJECT: integer(1, 1000).optional(),
  LOCAL_MAX_CONNECTIONS_PER_SESSION: integer(1, 100).default(8),
  LOCAL_MAX_CONTEXTS_PER_PROJECT: integer(1, 100_000).default(100),
  // A stored context profile, zipped (in the database, for every instance); a larger save is not stored.
  CONTEXT_MAX_MB: integer(1, 256).default(64),
  MAX_PROJECTS_PER_USER: integer(1, 100_000).default(100),
  // SPEC §17: who may make an account, the operators, how long the audit log is kept.
  SIGNUP: z.enum(SIGNUP_MODES, { message: `must be one of ${SIGNUP_MODES.join(', ')}` }).default('open'),
  ADMIN_EMAILS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((e) => e.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().regex(EMAIL_PATTERN, 'must be a comma-separated list of e-mail addresses'))),
  AUDIT_RETENTION_DAYS: integer(1, 3650).default(AUDIT_RETENTION_DAYS_DEFAULT),
  LOCAL_SESSION_LOG_MAX_MB: integer(1, 1024).default(8),
  LOCAL_ENDED_LOGS_MAX_MB: integer(0, 16_384).default(64),
  // Session files (http-api.md §5): the largest upload; how long and how much of ended sessions'
  // downloads the local provider keeps (0: none past the session's end).
  UPLOAD_MAX_MB: integer(1, 4096).default(50),
  DOWNLOADS_RETENTION_SEC: integer(0, 30 * 86_400).default(3600),
  DOWNLOADS_MAX_MB: integer(0, 1_048_576).default(1024),
  // One account's share of them (default: half of DOWNLOADS_MAX_MB, the provider's); at most
  // DOWNLOADS_MAX_MB, which stays the ceiling of all accounts' together.
  DOWNLOADS_MAX_MB_PER_OWNER: integer(0, 1_048_576).optional(),
  // Recordings (SPEC §18): on by default for local and Grid sessions; the largest one of a session,
  // how long they are kept after their session ended, and Debian's ffmpeg that makes the videos.
  RECORD_SESSIONS: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  RECORDING_MAX_MB: integer(1, 16_384).default(200),
  // All recordings together, and one account's share of them (default half; at most the total).
  RECORDINGS_MAX_GB: integer(1, 1_048_576).default(20),
  RECORDINGS_MAX_GB_PER_OWNER: integer(1, 1_048_576).optional(),
  RECORDINGS_RETENTION_DAYS: integer(1, 3650).default(7),
  FFMPEG_PATH: optionalText,
  LOCAL_BROWSER_MEMORY_MB: browserLimit(RESOURCE_LIMIT_BOUNDS.memoryMb),
  LOCAL_BROWSER_PIDS: browserLimit(RESOURCE_LIMIT_BOUNDS.pids),
  LOCAL_BROWSER_CPU_WEIGHT: browserLimit(RESOURCE_LIMIT_BOUNDS.cpuWeight),
  LOCAL_SESSION_DISK_MB: browserLimit(RESOURCE_LIMIT_BOUNDS.diskMb),
  LOCAL_ISOLATION: z.enum(['on', 'off', 'bubblewrap', 'namespaces']).default('on'),
  BROWSER_USER: optionalText,
  EGRESS_ALLOW_PRIVATE: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  EGRESS_ALLOW: z.string().default('').transform(egressList),
  EGRESS_DENY: z.string().default('').transform(egressList),
  ACCESS_TOKEN_TTL_SEC: integer(30, 86_400).default(900),
  REFRESH_TOKEN_TTL_SEC: integer(60, 31_536_000).default(2_592_000),
  JWT_PRIVATE_KEY: optionalText,
  SECRET_KEY: optionalText,
  RECONCILE_INTERVAL_SEC: integer(1, 3600).default(15),
  // How often metered proxy bytes are stored: a crash loses at most this much of the count.
  PROXY_BYTES_FLUSH_SEC: integer(1, 3600).default(5),
  // Runs (http-api.md §11): at once per instance; whether this instance executes them at all; each
  // run's heap cap and log budget; processes kept ready (unset: RUN_CONCURRENCY; none without a worker).
  RUN_CONCURRENCY: integer(1, 256).default(RUN_CONCURRENCY_DEFAULT),
  RUN_WARM_RUNNERS: integer(0, 64).optional(),
  RUN_WORKER: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  RUN_MEMORY_MB: integer(64, 65_536).default(RUN_MEMORY_MB_DEFAULT),
  RUN_MAX_LOG_BYTES: integer(RUN_LOG_LINE_MAX_BYTES, 1024 * 1024 * 1024).default(RUN_MAX_LOG_BYTES_DEFAULT),
  // Fair shares per account: runs at once (unset: half of RUN_CONCURRENCY, at least 1), runs queued
  // (past them a create is 429 run_queue_full), log streams and wait long polls held open at once.
  RUN_MAX_ACTIVE_PER_OWNER: integer(1, 256).optional(),
  RUN_MAX_QUEUED_PER_OWNER: integer(1, 100_000).default(RUN_MAX_QUEUED_PER_OWNER_DEFAULT),
  RUN_MAX_WAITERS_PER_OWNER: integer(1, 10_000).default(RUN_MAX_WAITERS_PER_OWNER_DEFAULT),
  // Days a run and its logs are kept after it ended; an hourly sweep deletes older ones, in batches.
  RUN_RETENTION_DAYS: integer(1, RUN_RETENTION_DAYS_MAX).default(RUN_RETENTION_DAYS_DEFAULT),
  // How long SIGTERM may take: in-flight requests get half, then sessions end and the process exits.
  SHUTDOWN_GRACE_SEC: integer(1, 3600).default(10),
  METRICS_TOKEN: metricsToken,
  METRICS_LISTEN: listenAddress,
  // Which proxies may say who the client is and how it came (X-Forwarded-*); docs/adr/0032.
  TRUST_PROXY: trustProxy,
  // http-api.md §10's cut-off (30 s); lower it for tests, raise it behind a proxy that waits longer.
  REQUEST_TIMEOUT_SEC: integer(1, 3600).default(30),
  // Attempts a minute (http-api.md §3 defaults); raised for load tests that sign in from one address.
  AUTH_RATE_LIMIT_PER_ADDRESS: integer(1, 1_000_000).default(DEFAULT_AUTH_RATE_LIMITS.perAddress.limit),
  AUTH_RATE_LIMIT_SIGNIN_PER_EMAIL: integer(1, 1_000_000).default(
    DEFAULT_AUTH_RATE_LIMITS.signInPerEmail.limit,
  ),
  AUTH_RATE_LIMIT_SIGNUP_PER_EMAIL: integer(1, 1_000_000).default(
    DEFAULT_AUTH_RATE_LIMITS.signUpPerEmail.limit,
  ),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  CORS_ORIGINS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((o) => o.trim())
        .filter(Boolean),
    ),
});

/** The validated configuration the server runs with. */
export type Config = z.output<typeof EnvSchema> & {
  publicUrl: string;
  /** `INSTANCE_URL`, else `http://HOST:PORT` (loopback for a wildcard HOST). */
  instanceUrl: string;
  databaseUrl: string;
  dataDir: string;
  /** `LOCAL_MAX_SESSIONS_PER_OWNER`, else the old `LOCAL_MAX_SESSIONS_PER_PROJECT`; unset: the provider's default. */
  localMaxSessionsPerOwner: number | undefined;
  /** Sign-in and sign-up limits, per minute, from the `AUTH_RATE_LIMIT_*` variables. */
  authRateLimits: AuthRateLimits;
};

/** Thrown for a bad environment; its message names every offending variable. */
export class ConfigError extends Error {}

/**
 * Reads and validates the environment. Empty strings count as unset, so `FOO=` falls back to the
 * default. Values that name providers not built yet are refused with a message saying so.
 */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = EnvSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map(
      (issue) => `  ${issue.path.join('.') || '(environment)'}: ${issue.message}`,
    );
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const cfg = parsed.data;
  const missing = (names: string[]) => names.filter((n) => !present[n]);
  if (cfg.IDENTITY_PROVIDER === 'supabase') {
    const absent = missing(['SUPABASE_URL', 'SUPABASE_ANON_KEY']);
    if (absent.length) throw new ConfigError(`IDENTITY_PROVIDER=supabase needs ${absent.join(', ')}`);
  }
  const perOwnerName =
    cfg.LOCAL_MAX_SESSIONS_PER_OWNER === undefined
      ? 'LOCAL_MAX_SESSIONS_PER_PROJECT'
      : 'LOCAL_MAX_SESSIONS_PER_OWNER';
  const localMaxSessionsPerOwner = cfg.LOCAL_MAX_SESSIONS_PER_OWNER ?? cfg.LOCAL_MAX_SESSIONS_PER_PROJECT;
  // Against a host-sized LOCAL_MAX_SESSIONS the provider lowers the share to it (and warns).
  if (
    localMaxSessionsPerOwner !== undefined &&
    cfg.LOCAL_MAX_SESSIONS !== undefined &&
    localMaxSessionsPerOwner > cfg.LOCAL_MAX_SESSIONS
  )
    throw new ConfigError(
      `Invalid configuration:\n  ${perOwnerName}: must be at most LOCAL_MAX_SESSIONS (${cfg.LOCAL_MAX_SESSIONS})`,
    );
  if (cfg.DOWNLOADS_MAX_MB_PER_OWNER !== undefined && cfg.DOWNLOADS_MAX_MB_PER_OWNER > cfg.DOWNLOADS_MAX_MB)
    throw new ConfigError(
      `Invalid configuration:\n  DOWNLOADS_MAX_MB_PER_OWNER: must be at most DOWNLOADS_MAX_MB (${cfg.DOWNLOADS_MAX_MB})`,
    );
  if (
    cfg.RECORDINGS_MAX_GB_PER_OWNER !== undefined &&
    cfg.RECORDINGS_MAX_GB_PER_OWNER > cfg.RECORDINGS_MAX_GB
  )
    throw new ConfigError(
      `Invalid configuration:\n  RECORDINGS_MAX_GB_PER_OWNER: must be at most RECORDINGS_MAX_GB (${cfg.RECORDINGS_MAX_GB})`,
    );
  if (
    cfg.METRICS_LISTEN &&
    cfg.METRICS_LISTEN.port !== 0 &&
    cfg.METRICS_LISTEN.port === cfg.PORT &&
    cfg.METRICS_LISTEN.host === cfg.HOST
  ) {
    throw new ConfigError(
      'Invalid configuration:\n  METRICS_LISTEN: must differ from HOST:PORT (the API listens there)',
    );
  }
  if (cfg.BROWSER_PROVIDER === 'browserbase') {
    const absent = missing(['BROWSERBASE_API_KEY', 'BROWSERBASE_PROJECT_ID']);
    if (absent.length) throw new ConfigError(`BROWSER_PROVIDER=browserbase needs ${absent.join(', ')}`);
  }
  if (cfg.BROWSER_PROVIDER === 'selenium-grid' && !present.SELENIUM_GRID_URL)
    throw new ConfigError(
      'BROWSER_PROVIDER=selenium-grid needs SELENIUM_GRID_URL (the Grid’s router, e.g. http://selenium-hub:4444)',
    );
  const dataDir = resolve(cfg.DATA_DIR);
  const urlHost = cfg.HOST.includes(':') ? `[${cfg.HOST}]` : cfg.HOST;
  return {
    ...cfg,
    dataDir,
    localMaxSessionsPerOwner,
    publicUrl: (cfg.PUBLIC_URL ?? `http://${urlHost}:${cfg.PORT}`).replace(/\/+$/, ''),
    instanceUrl: instanceUrlOf(cfg.INSTANCE_URL, cfg.HOST, cfg.PORT),
    databaseUrl: cfg.DATABASE_URL ?? `sqlite:${resolve(dataDir, 'browserdeck.sqlite')}`,
    authRateLimits: {
      perAddress: { limit: cfg.AUTH_RATE_LIMIT_PER_ADDRESS, windowSec: 60 },
      signInPerEmail: { limit: cfg.AUTH_RATE_LIMIT_SIGNIN_PER_EMAIL, windowSec: 60 },
      signUpPerEmail: { limit: cfg.AUTH_RATE_LIMIT_SIGNUP_PER_EMAIL, windowSec: 60 },
    },
  };
}

/**
 * Where other instances reach this one: `INSTANCE_URL`, else this server's own address, with a
 * wildcard HOST (`0.0.0.0`, `::`) read as loopback (fits instances on one host; set INSTANCE_URL to
 * an address the others can reach when they are on other hosts).
 */
export function instanceUrlOf(configured: string | undefined, host: string, port: number): string {
  if (configured) return configured.replace(/\/+$/, '');
  const local = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `http://${local.includes(':') ? `[${local}]` : local}:${port}`;
}
