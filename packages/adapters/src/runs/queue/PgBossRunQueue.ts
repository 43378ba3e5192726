import { RUN_TIMEOUT_MAX_SEC, type RunTicket } from '@browserdeck/domain';
import { PgBoss } from 'pg-boss';
import type { Logger } from 'pino';
import type { RunQueueConsumer, RunWorkQueue } from './RunWorkQueue.ts';

/** How pg-boss reaches PostgreSQL: a URL, or the parts of one (as MikroORM resolves them). */
export type PgBossConnection =
  | { connectionString: string }
  | {
      host?: string | undefined;
      port?: number | undefined;
      user?: string | undefined;
      password?: string | (() => string | Promise<string>) | undefined;
      database?: string | undefined;
    };

/** Options of `PgBossRunQueue.open`. */
export interface PgBossRunQueueOptions {
  connection: PgBossConnection;
  logger: Pick<Logger, 'warn' | 'debug'>;
  /** pg-boss's own schema (default `pgboss`), made and migrated by pg-boss. */
  schema?: string | undefined;
  /** The queue's name (default `browserdeck-runs`). */
  queueName?: string | undefined;
  /** How often idle workers look for runs when no notification woke them, in seconds (default 2). */
  pollingIntervalSec?: number | undefined;
  /**
   * Runs of one account executed at once over every instance (`RUN_MAX_ACTIVE_PER_OWNER`): pg-boss's
   * group concurrency, counted in the database. Default: no bound.
   */
  maxActivePerOwner?: number | undefined;
}

/**
 * How long a job's worker may go without a heartbeat (pg-boss sends one while the handler runs)
 * before pg-boss fails the job: a dead instance's runs stop counting against their account's share.
 */
const JOB_HEARTBEAT_SEC = 30;

/** The job's data: the run's ticket, nothing else (the script and env stay in the runs table). */
interface RunJob {
  runId: string;
  ownerId: string;
}

/**
 * The run queue on PostgreSQL, shared by every instance: pg-boss in a schema of its own. Fair across
 * accounts: a job's group is its account (at most `maxActivePerOwner` of a group active at once,
 * counted in the database), and its priority falls with the runs its account has queued ahead of it,
 * so an account's first queued run comes before another's hundredth (workers fetch by priority, then
 * age). A job is tried once (a run whose worker died is ended by the reaper, never run twice) and may stay active
 * past the longest run timeout. New jobs wake this instance's workers at once, and other instances'
 * through LISTEN/NOTIFY where the connection allows it (polling otherwise).
 */
export class PgBossRunQueue implements RunWorkQueue {
  private readonly boss: PgBoss;
  private readonly name: string;
  private readonly schema: string;
  private readonly options: PgBossRunQueueOptions;
  private consumer: RunQueueConsumer | undefined;
  private workId: string | undefined;

  private constructor(options: PgBossRunQueueOptions) {
    this.options = options;
    this.name = options.queueName ?? 'browserdeck-runs';
    this.schema = options.schema ?? 'pgboss';
    this.boss = new PgBoss({
      ...options.connection,
      schema: this.schema,
      application_name: 'browserdeck-runs',
      max: 4,
      schedule: false,
      useListenNotify: true,
    });
    // An 'error' event without a listener would end the process.
    this.boss.on('error', (error) => options.logger.warn({ err: error }, 'run queue (pg-boss) error'));
    this.boss.on('warning', (warning) => options.logger.debug({ warning }, 'run queue (pg-boss) warning'));
  }

  /** Starts pg-boss (installing or migrating its schema) and makes sure the queue exists as configured. */
  static async open(options: PgBossRunQueueOptions): Promise<PgBossRunQueue> {
    const queue = new PgBossRunQueue(options);
    await queue.boss.start();
    try {
      const settings = {
        retryLimit: 0,
        expireInSeconds: RUN_TIMEOUT_MAX_SEC + 3600,
        heartbeatSeconds: JOB_HEARTBEAT_SEC,
        notify: true,
      };
      await queue.boss.createQueue(queue.name, settings);
      // A queue made by an older version keeps its settings: set them again.
      await queue.boss.updateQueue(queue.name, settings);
    } catch (error) {
      await queue.boss.stop({ graceful: false });
      throw error;
    }
    return queue;
  }

  async enqueue({ runId, ownerId }: RunTicket, options: { delayMs?: number } = {}): Promise<void> {
    const delayMs = options.delayMs ?? 0;
    const data: RunJob = { runId, ownerId };
    const ahead = await this.queuedOf(ownerId);
    await this.boss.send(this.name, data, {
      group: { id: ownerId },
      priority: -ahead,
      ...(delayMs > 0 ? { startAfter: Math.ceil(delayMs / 1000) } : {}),
    });
    if (delayMs <= 0) this.wakeWorkers();
  }

  interrupt(runId: string): void {
    this.consumer?.interrupt(runId);
  }

  /** The account's jobs waiting (created, or due again), counted live. */
  private async queuedOf(ownerId: string): Promise<number> {
    const { rows } = await this.boss
      .getDb()
      .executeSql(
        `SELECT count(*)::int AS n FROM ${this.schema}.job WHERE name = $1 AND state IN ('created', 'retry') AND group_id = $2`,
        [this.name, ownerId],
      );
    return Number(rows[0]?.n ?? 0);
  }

  async depth(): Promise<number> {
    // Counted live: the queue's own counters are refreshed only by pg-boss's monitor.
    const { rows } = await this.boss
      .getDb()
      .executeSql(
        `SELECT count(*)::int AS n FROM ${this.schema}.job WHERE name = $1 AND state IN ('created', 'retry')`,
        [this.name],
      );
    return Number(rows[0]?.n ?? 0);
  }

  async start(consumer: RunQueueConsumer, options: { concurrency: number }): Promise<void> {
    if (this.consumer) return;
    this.consumer = consumer;
    const pollingIntervalSeconds = this.options.pollingIntervalSec ?? 2;
    this.workId = await this.boss.work<RunJob>(
      this.name,
      {
        localConcurrency: Math.max(1, options.concurrency),
        ...(this.options.maxActivePerOwner === undefined
          ? {}
          : { groupConcurrency: Math.max(1, this.options.maxActivePerOwner) }),
        batchSize: 1,
        pollingIntervalSeconds,
        // A job sent with a back-off is not announced when it comes due: keep looking as often.
        notifyPollingIntervalSeconds: pollingIntervalSeconds,
      },
      async (jobs) => {
        for (const job of jobs)
          await consumer.run({ runId: job.data.runId, ownerId: job.data.ownerId ?? job.groupId ?? '' });
      },
    );
  }

  async stopTaking(): Promise<void> {
    if (this.workId) await this.boss.offWork(this.name, { id: this.workId, wait: false });
  }

  async close(): Promise<void> {
    await this.boss.stop({ graceful: true, timeout: 5_000 });
  }

  /** Wakes this instance's idle workers, so a run queued here starts without waiting for a poll. */
  private wakeWorkers(): void {
    const workId = this.workId;
    if (!workId) return;
    for (const worker of this.boss.getWipData()) {
      if (worker.workId === workId) this.boss.notifyWorker(worker.id);
    }
  }
}
