import { randomUUID } from 'node:crypto';
import type { RunChanges, StopSignal } from '@browserdeck/domain';
import pg from 'pg';
import type { Logger } from 'pino';
import { InProcessRunChanges } from './InProcessRunChanges.ts';
import type { PgBossConnection } from './queue/PgBossRunQueue.ts';

/** The PostgreSQL channel run changes travel on between instances. */
const CHANNEL = 'browserdeck_run_changes';
/** Between attempts to listen again after the connection was lost. */
const RECONNECT_MS = 1_000;

/**
 * Run changes across the instances that share one PostgreSQL database: a change wakes this
 * instance's readers at once (`InProcessRunChanges`) and is sent to the others with `NOTIFY`, whose
 * `LISTEN` wakes theirs. Nothing reads the database on a timer: a reader waits for a notification.
 * Changes noted in the same turn of the event loop go in one statement. One connection of its own
 * (LISTEN needs a session), opened again when it is lost; what changed while it was away wakes its
 * readers at their backstop (FollowRunLogs looks again after a minute).
 */
export class PostgresRunChanges implements RunChanges {
  private readonly local = new InProcessRunChanges();
  /** Tells this instance's own notifications apart when they come back. */
  private readonly origin = randomUUID();
  private readonly connection: PgBossConnection;
  private readonly logger: Pick<Logger, 'warn'>;
  private client: pg.Client | null = null;
  private pending = new Set<string>();
  private flushing = false;
  private closed = false;

  private constructor(connection: PgBossConnection, logger: Pick<Logger, 'warn'>) {
    this.connection = connection;
    this.logger = logger;
  }

  /** Connects and listens; rejects when the database cannot be reached. */
  static async open(connection: PgBossConnection, logger: Pick<Logger, 'warn'>): Promise<PostgresRunChanges> {
    const changes = new PostgresRunChanges(connection, logger);
    await changes.listen();
    return changes;
  }

  notify(runId: string): void {
    this.local.notify(runId);
    this.pending.add(runId);
    if (!this.flushing) {
      this.flushing = true;
      setImmediate(() => void this.publish());
    }
  }

  next(runId: string, maxWaitMs: number, signal?: StopSignal): Promise<void> {
    return this.local.next(runId, maxWaitMs, signal);
  }

  /** Stops listening and closes the connection. */
  async close(): Promise<void> {
    this.closed = true;
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => {});
  }

  private async listen(): Promise<void> {
    const client = new pg.Client({ ...this.connection, application_name: 'browserdeck-run-changes' });
    client.on('notification', (message) => {
      const [origin, runId] = (message.payload ?? '').split(' ');
      if (origin !== this.origin && runId) this.local.notify(runId);
    });
    // An 'error' without a listener would end the process; the connection is made again instead.
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, null));
    await client.connect();
    await client.query(`LISTEN ${CHANNEL}`);
    this.client = client;
  }

  private lost(client: pg.Client, error: Error | null): void {
    if (this.client !== client || this.closed) return;
    this.client = null;
    this.logger.warn({ err: error }, 'run changes: lost the LISTEN connection; listening again');
    const retry = () => {
      if (this.closed) return;
      this.listen().catch(() => setTimeout(retry, RECONNECT_MS).unref());
    };
    setTimeout(retry, RECONNECT_MS).unref();
  }

  private async publish(): Promise<void> {
    const runIds = [...this.pending];
    this.pending = new Set();
    if (this.closed) return;
    try {
      const payloads = runIds.map((runId) => `${this.origin} ${runId}`);
      await this.client?.query(`SELECT pg_notify('${CHANNEL}', payload) FROM unnest($1::text[]) AS payload`, [
        payloads,
      ]);
    } catch (error) {
      // Other instances' readers then see the change at their backstop.
      this.logger.warn({ err: error, runs: runIds.length }, 'run changes: could not notify other instances');
    } finally {
      this.flushing = false;
      if (this.pending.size > 0) this.notifyLater();
    }
  }

  private notifyLater(): void {
    this.flushing = true;
    setImmediate(() => void this.publish());
  }
}
