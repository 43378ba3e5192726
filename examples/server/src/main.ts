import { pino } from 'pino';
import { ConfigError, loadConfig } from './config.ts';
import { startServer } from './startServer.ts';

/**
 * The standalone Browserdeck server: `npm start`; with `--worker` (`npm run worker`), a worker-only
 * process that executes runs and serves no API routes.
 */
async function main(): Promise<void> {
  const workerOnly = process.argv.slice(2).includes('--worker');
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(process.env);
    if (workerOnly && !config.RUN_WORKER) {
      throw new ConfigError(
        'Invalid configuration:\n  RUN_WORKER: must not be false for a worker (npm run worker)',
      );
    }
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const logger = pino({ level: config.LOG_LEVEL, base: { service: 'browserdeck' } });
  const running = await startServer(config, logger, { workerOnly });
  logger.info(
    {
      url: running.url,
      ...(running.metricsUrl ? { metricsUrl: running.metricsUrl } : {}),
      publicUrl: config.publicUrl,
      database: config.databaseUrl.split(':')[0],
      identity: config.IDENTITY_PROVIDER,
      runs: config.RUN_WORKER ? { concurrency: config.RUN_CONCURRENCY } : 'api-only',
    },
    workerOnly ? 'Browserdeck is listening as a worker (no API routes)' : 'Browserdeck is listening',
  );
  const graceMs = config.SHUTDOWN_GRACE_SEC * 1000;
  const shutdown = (signal: NodeJS.Signals) => {
    logger.info(
      { signal, graceSec: config.SHUTDOWN_GRACE_SEC },
      'shutting down: finishing in-flight requests',
    );
    // The grace is a promise to the supervisor: whatever is still closing then is cut.
    setTimeout(() => {
      logger.error({ graceSec: config.SHUTDOWN_GRACE_SEC }, 'shutdown grace period over: exiting now');
      process.exit(1);
    }, graceMs).unref();
    running.stop(graceMs).then(
      () => {
        logger.info('stopped');
        process.exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}

main().catch((error: unknown) => {
  console.error('Browserdeck could not start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
