import type { BrowsersOption, DatabaseOption, IdentityOption } from '@browserdeck/adapters';
import type { Config } from './config.ts';

/** The database from `DATABASE_URL` (SQLite in `DATA_DIR` by default), opened and migrated by the composition. */
export function databaseOption(config: Config): DatabaseOption {
  return { url: config.databaseUrl };
}

/** The identity provider chosen by `IDENTITY_PROVIDER`. */
export function identityOption(config: Config): IdentityOption {
  if (config.IDENTITY_PROVIDER === 'supabase') {
    return {
      supabase: {
        url: config.SUPABASE_URL ?? '',
        anonKey: config.SUPABASE_ANON_KEY ?? '',
        jwtSecret: config.SUPABASE_JWT_SECRET,
      },
    };
  }
  return {
    local: {
      jwtPrivateKeyPem: config.JWT_PRIVATE_KEY,
      accessTokenTtlSec: config.ACCESS_TOKEN_TTL_SEC,
      refreshTokenTtlSec: config.REFRESH_TOKEN_TTL_SEC,
    },
  };
}

const MIB = 1024 * 1024;

/** The cloud-browser provider chosen by `BROWSER_PROVIDER`. */
export function browsersOption(config: Config): BrowsersOption {
  if (config.BROWSER_PROVIDER === 'browserbase') {
    return {
      browserbase: {
        apiKey: config.BROWSERBASE_API_KEY ?? '',
        projectId: config.BROWSERBASE_PROJECT_ID ?? '',
        baseUrl: config.BROWSERBASE_BASE_URL,
      },
    };
  }
  if (config.BROWSER_PROVIDER === 'selenium-grid') {
    return {
      seleniumGrid: {
        gridUrl: config.SELENIUM_GRID_URL ?? '',
        headers: config.SELENIUM_GRID_HEADERS,
      },
    };
  }
  return {
    local: {
      chromiumPath: config.CHROMIUM_PATH,
      extensionsChromiumPath: config.CHROMIUM_EXTENSIONS_PATH,
      chromedriverPath: config.CHROMEDRIVER_PATH,
      maxSessions: config.LOCAL_MAX_SESSIONS,
      warmBrowsers: config.LOCAL_WARM_BROWSERS,
      maxSessionsPerOwner: config.localMaxSessionsPerOwner,
      maxConnectionsPerSession: config.LOCAL_MAX_CONNECTIONS_PER_SESSION,
      maxContextsPerProject: config.LOCAL_MAX_CONTEXTS_PER_PROJECT,
      contextMaxBytes: config.CONTEXT_MAX_MB * MIB,
      sessionLogMaxBytes: config.LOCAL_SESSION_LOG_MAX_MB * MIB,
      endedLogMaxBytes: config.LOCAL_ENDED_LOGS_MAX_MB * MIB,
      downloadsRetentionSec: config.DOWNLOADS_RETENTION_SEC,
      downloadsMaxBytes: config.DOWNLOADS_MAX_MB * MIB,
      downloadsMaxBytesPerOwner:
        config.DOWNLOADS_MAX_MB_PER_OWNER === undefined ? undefined : config.DOWNLOADS_MAX_MB_PER_OWNER * MIB,
      browserMemoryMb: config.LOCAL_BROWSER_MEMORY_MB,
      browserPids: config.LOCAL_BROWSER_PIDS,
      browserCpuWeight: config.LOCAL_BROWSER_CPU_WEIGHT,
      sessionDiskMb: config.LOCAL_SESSION_DISK_MB,
      isolation: config.LOCAL_ISOLATION,
      browserUser: config.BROWSER_USER,
      egress: {
        allowPrivate: config.EGRESS_ALLOW_PRIVATE,
        allow: config.EGRESS_ALLOW,
        deny: config.EGRESS_DENY,
      },
    },
  };
}
