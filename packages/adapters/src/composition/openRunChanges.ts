import type { RunChanges } from '@browserdeck/domain';
import type { Logger } from 'pino';
import { InProcessRunChanges } from '../runs/InProcessRunChanges.ts';
import type { PgBossConnection } from '../runs/queue/PgBossRunQueue.ts';
import type { Part } from './lifecycle/Part.ts';

/** The run change feed, as the part that closes it (its LISTEN connection) once runs are over. */
export interface OpenedRunChanges extends Part {
  changes: RunChanges;
}

/**
 * How readers of runs (log streams, `wait`) hear of changes: on PostgreSQL, where instances share
 * the runs, in process and by LISTEN/NOTIFY to the others (loaded only then); otherwise in process.
 */
export async function openRunChanges(
  postgres: PgBossConnection | undefined,
  logger: Logger,
): Promise<OpenedRunChanges> {
  const part = { name: 'run-changes', phase: 'drain' } as const;
  if (!postgres) return { ...part, changes: new InProcessRunChanges(), stop: async () => {} };
  const { PostgresRunChanges } = await import('../runs/PostgresRunChanges.ts');
  const changes = await PostgresRunChanges.open(postgres, logger.child({ component: 'run-changes' }));
  return { ...part, changes, stop: () => changes.close() };
}
