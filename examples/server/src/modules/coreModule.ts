import type { BrowserdeckOptions } from '@browserdeck/adapters';
import { ContainerModule } from 'inversify';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { httpSettings } from '../httpSettings.ts';
import { TOKENS as T } from '../tokens.ts';

/** Configuration, logging, and the settings of `createBrowserdeck` that are not an adapter. */
export function coreModule(config: Config, logger: Logger): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(T.Config).toConstantValue(config);
    bind(T.Logger).toConstantValue(logger);
    bind(T.BrowserdeckOptions).toConstantValue({
      dataDir: config.dataDir,
      publicUrl: config.publicUrl,
      secretKey: config.SECRET_KEY,
      logger,
      rateLimits: config.authRateLimits,
      maxProjectsPerUser: config.MAX_PROJECTS_PER_USER,
      access: {
        signup: config.SIGNUP,
        adminEmails: config.ADMIN_EMAILS,
        auditRetentionDays: config.AUDIT_RETENTION_DAYS,
      },
      uploadMaxBytes: config.UPLOAD_MAX_MB * 1024 * 1024,
      recordings: {
        enabled: config.RECORD_SESSIONS,
        maxBytesPerSession: config.RECORDING_MAX_MB * 1024 * 1024,
        maxTotalBytes: config.RECORDINGS_MAX_GB * 1024 ** 3,
        maxBytesPerOwner:
          config.RECORDINGS_MAX_GB_PER_OWNER === undefined
            ? undefined
            : config.RECORDINGS_MAX_GB_PER_OWNER * 1024 ** 3,
        retentionDays: config.RECORDINGS_RETENTION_DAYS,
        ffmpegPath: config.FFMPEG_PATH,
      },
      reconcileIntervalSec: config.RECONCILE_INTERVAL_SEC,
      proxyBytesFlushSec: config.PROXY_BYTES_FLUSH_SEC,
      instance: { id: config.LOCAL_INSTANCE_ID, url: config.instanceUrl },
      runs: {
        worker: config.RUN_WORKER,
        concurrency: config.RUN_CONCURRENCY,
        warmRunners: config.RUN_WARM_RUNNERS,
        memoryMb: config.RUN_MEMORY_MB,
        maxLogBytes: config.RUN_MAX_LOG_BYTES,
        maxActivePerOwner: config.RUN_MAX_ACTIVE_PER_OWNER,
        maxQueuedPerOwner: config.RUN_MAX_QUEUED_PER_OWNER,
        maxWaitersPerOwner: config.RUN_MAX_WAITERS_PER_OWNER,
        retentionDays: config.RUN_RETENTION_DAYS,
        // Runs are confined on this host whatever the browser provider: LOCAL_ISOLATION and
        // BROWSER_USER apply to them with the Browserbase provider too.
        isolation: config.LOCAL_ISOLATION,
        user: config.BROWSER_USER,
        // A quarter of SIGTERM's grace: requests have half, and canceled runs release their sessions after.
        shutdownGraceSec: config.SHUTDOWN_GRACE_SEC / 4,
      },
      http: httpSettings(config),
    } satisfies BrowserdeckOptions);
  });
}
