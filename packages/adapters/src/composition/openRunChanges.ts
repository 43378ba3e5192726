import type { RunChanges } from '@browserdeck/domain';
import type { Logger } from 'pino';
import { InProcessRunChanges } from '../runs/InProcessRunChanges.ts';
import type { PgBossConnection } from '../runs/queue/PgBossRunQueue.ts';

/**
 * How readers of runs (log streams, `wait`) hear of changes: on PostgreSQL, where instances share
 * the runs, in process and by LISTEN/NOTIFY to the others (loaded only then); otherwise in process.
 */
export async function openRunChanges(
  postgres: PgBossConnection | undefined,
  logger: Logger,
): Promise<{ changes: RunChanges; close(): Promise<void> }> {
  if (!postgres) return { changes: new InProcessRunChanges(), close: async () => {} };
  const { PostgresRunChanges } = await import('../runs/PostgresRunChanges.ts');
  const changes = await PostgresRunChanges.open(postgres, logger.child({ component: 'run-changes' }));
  return { changes, close: () => changes.close() };
}
