import { RUN_TIMEOUT_MAX_SEC, type RunTicket } from '@browserdeck/domain';
import { PgBoss, type WorkOptions } from 'pg-boss';
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
   * group concurrency, counted in the database, and admitted one at a time (`admit`). Default: no bound.
   */
  maxActivePerOwner?: number | undefined;
}

/**
 * How long a job's worker may go without a heartbeat (pg-boss sends one while the handler runs)
 * before pg-boss fails the job: a dead instance's runs stop counting against their account's share.
 */
const JOB_HEARTBEAT_SEC = 30;

/** The mark of a job admitted to run under its account's bound (`PgBossRunQueue.admit`). */
const ADMITTED = '{"browserdeckAdmitted":true}';

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
  /** False once `stopTaking` ran: a job a fetch still brings in is queued again, not run. */
  private taking = true;

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

  async enqueue(ticket: RunTicket, options: { delayMs?: number } = {}): Promise<void> {
    await this.send(ticket, -(await this.queuedOf(ticket.ownerId)), options.delayMs ?? 0);
  }

  private async send({ runId, ownerId }: RunTicket, priority: number, delayMs: number): Promise<void> {
    const data: RunJob = { runId, ownerId };
    await this.boss.send(this.name, data, {
      group: { id: ownerId },
      priority,
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
    this.workId = await this.boss.work<RunJob, void, WorkOptions & { includeMetadata: true }>(
      this.name,
      {
        localConcurrency: Math.max(1, options.concurrency),
        ...(this.options.maxActivePerOwner === undefined
          ? {}
          : { groupConcurrency: Math.max(1, this.options.maxActivePerOwner) }),
        batchSize: 1,
        includeMetadata: true,
        pollingIntervalSeconds,
        // A job sent with a back-off is not announced when it comes due: keep looking as often.
        notifyPollingIntervalSeconds: pollingIntervalSeconds,
      },
      async (jobs) => {
        for (const job of jobs) {
          const ticket = { runId: job.data.runId, ownerId: job.data.ownerId ?? job.groupId ?? '' };
          // A fetch in flight when `stopTaking` ran still returns its jobs (pg-boss stops the loop
          // after it): they go back to the queue, at their place, for another instance.
          if (!this.taking) {
            await this.send(ticket, job.priority, 0);
            continue;
          }
          const admitted = await this.admit(job.id, ticket.ownerId).catch((error: unknown) => {
            this.options.logger.warn(
              { err: error, runId: ticket.runId },
              'could not admit a run: queued again',
            );
            return 'retry' as const;
          });
          if (admitted === true) await consumer.run(ticket);
          // Its place kept (same priority): fetched again once the account's slot is free.
          else await this.send(ticket, job.priority, admitted === 'retry' ? 1_000 : 0);
        }
      },
    );
  }

  /**
   * Whether a fetched job may run: fewer than `maxActivePerOwner` of its account's active jobs are
   * admitted. pg-boss's group filter reads the active jobs as each fetch starts, so fetches in the same
   * instant (two workers woken by one send, or two instances) can all pass it. Admission is decided one
   * at a time per account (an advisory lock for the transaction) and marked on the job's `output`,
   * which pg-boss replaces when the job settles; a job whose instance died stops counting when its
   * heartbeat fails it. A refused job is queued again and this one completes.
   */
  private async admit(jobId: string, ownerId: string): Promise<boolean> {
    const limit = this.options.maxActivePerOwner;
    if (limit === undefined) return true;
    const tx = await this.transaction();
    try {
      await tx.db.executeSql('SELECT pg_advisory_xact_lock(hashtext($1))', [`${this.name}/${ownerId}`]);
      const { rows } = await tx.db.executeSql(
        `SELECT count(*)::int AS n FROM ${this.schema}.job WHERE name = $1 AND group_id = $2 AND state = 'active' AND id <> $3 AND output @> '${ADMITTED}'::jsonb`,
        [this.name, ownerId, jobId],
      );
      const admitted = Number(rows[0]?.n ?? 0) < Math.max(1, limit);
      if (admitted)
        await tx.db.executeSql(
          `UPDATE ${this.schema}.job SET output = '${ADMITTED}'::jsonb WHERE name = $1 AND id = $2 AND state = 'active'`,
          [this.name, jobId],
        );
      await tx.commit();
      return admitted;
    } catch (error) {
      await tx.rollback();
      throw error;
    }
  }

  private transaction() {
    const db = this.boss.getDb();
    if (!db.beginTransaction) throw new Error('the run queue needs a database it can open transactions on');
    return db.beginTransaction();
  }

  async stopTaking(): Promise<void> {
    this.taking = false;
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
