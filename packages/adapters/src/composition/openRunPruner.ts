import type { PruneOldRuns } from '@browserdeck/domain';
import type { Logger } from 'pino';
import type { Part } from './lifecycle/Part.ts';
import { RunPruner } from './RunPruner.ts';

/**
 * The sweep that deletes runs and their logs past `runs.retentionDays`, in batches: drained at
 * close (after its current batch), while the database is still open.
 */
export function openRunPruner(deps: { prune: Pick<PruneOldRuns, 'execute'>; logger: Logger }): Part {
  const pruner = new RunPruner(deps);
  return { name: 'run-pruner', phase: 'drain', start: () => pruner.start(), stop: () => pruner.stop() };
}
