import type { PruneAuditLog, PruneOldRuns } from '@browserdeck/domain';
import type { Logger } from 'pino';
import type { Part } from './lifecycle/Part.ts';
import { PeriodicPass } from './lifecycle/PeriodicPass.ts';
import { RUN_PRUNE_INTERVAL_MS, RunPruner } from './RunPruner.ts';

/**
 * The sweep that deletes runs and their logs past `runs.retentionDays`, in batches: drained at
 * close (after its current batch), while the database is still open.
 */
export function openRunPruner(deps: { prune: Pick<PruneOldRuns, 'execute'>; logger: Logger }): Part {
  const pruner = new RunPruner(deps);
  return { name: 'run-pruner', phase: 'drain', start: () => pruner.start(), stop: () => pruner.stop() };
}

/**
 * The sweep that deletes audit entries past `access.auditRetentionDays` (one statement), hourly
 * like the runs' sweep, first a minute after start; several instances may sweep at once.
 */
export function openAuditPruner(deps: { prune: Pick<PruneAuditLog, 'execute'>; logger: Logger }): Part {
  const loop = new PeriodicPass({
    pass: async () => {
      const deleted = await deps.prune.execute();
      if (deleted > 0) deps.logger.info({ deleted }, 'deleted audit entries past their retention');
    },
    intervalMs: RUN_PRUNE_INTERVAL_MS,
    firstDelayMs: 60_000,
    onError: (error) => deps.logger.warn({ err: error }, 'the sweep for old audit entries failed'),
  });
  return { name: 'audit-pruner', phase: 'drain', start: () => loop.start(), stop: () => loop.stop() };
}
