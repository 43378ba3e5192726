import type { RunRepository } from '@browserdeck/domain';
import type { Logger } from 'pino';
import { InProcessRunQueue } from '../runs/queue/InProcessRunQueue.ts';
import type { PgBossConnection } from '../runs/queue/PgBossRunQueue.ts';
import type { RunWorkQueue } from '../runs/queue/RunWorkQueue.ts';
import type { Part } from './lifecycle/Part.ts';

/** The run queue, as the part that closes it once the worker is done with it. */
export interface OpenedRunQueue extends Part {
  queue: RunWorkQueue;
}

/**
 * The run queue for the database: pg-boss on PostgreSQL (loaded only then), shared by every
 * instance; otherwise the in-process queue over the runs table, for one instance. Either hands out
 * at most `maxActivePerOwner` runs of one account at once, fairly across accounts.
 */
export async function openRunQueue(
  postgres: PgBossConnection | undefined,
  deps: { runs: RunRepository; logger: Logger; maxActivePerOwner: number },
): Promise<OpenedRunQueue> {
  const logger = deps.logger.child({ component: 'run-queue' });
  const { maxActivePerOwner } = deps;
  let queue: RunWorkQueue;
  if (postgres) {
    const { PgBossRunQueue } = await import('../runs/queue/PgBossRunQueue.ts');
    queue = await PgBossRunQueue.open({ connection: postgres, logger, maxActivePerOwner });
  } else {
    queue = new InProcessRunQueue({ runs: deps.runs, logger, maxActivePerOwner });
  }
  return { name: 'run-queue', phase: 'release', queue, stop: () => queue.close() };
}
