import type { Caller } from '../access/Caller.ts';
import type { AuditTrail } from '../audit/AuditTrail.ts';
import type { Clock } from '../shared/Clock.ts';
import { RateLimitedError } from '../shared/DomainError.ts';
import { endRunByCas } from './endRunByCas.ts';
import type { Run } from './Run.ts';
import type { RunChanges } from './RunChanges.ts';
import type { RunQueue } from './RunQueue.ts';
import type { RunRepository } from './RunRepository.ts';
import { RUN_MAX_QUEUED_PER_OWNER_DEFAULT } from './runRules.ts';

/** What a `run_queue_full` refusal asks a client to wait: about a short run's turn. */
const QUEUE_FULL_RETRY_AFTER_SEC = 5;

/** What queueing a new run needs; `maxQueuedPerOwner` is `RUN_MAX_QUEUED_PER_OWNER` (default 100). */
export interface QueueNewRunDeps {
  runs: RunRepository;
  runQueue: RunQueue;
  runChanges: RunChanges;
  clock: Clock;
  /** Records the create in the audit log, in the transaction that stores the run. */
  audit: AuditTrail;
  maxQueuedPerOwner?: number | undefined;
}

/**
 * Stores a new run (with its audit entry) and queues it for a worker. An account with `maxQueuedPerOwner` runs QUEUED
 * already is refused with 429 `run_queue_full` (nothing stored). When the queue refuses the run, it
 * ends FAILED `runner_failed` (nothing would ever pick it up) and the queue's error is thrown.
 */
export async function queueNewRun(deps: QueueNewRunDeps, run: Run, caller: Caller): Promise<Run> {
  const max = deps.maxQueuedPerOwner ?? RUN_MAX_QUEUED_PER_OWNER_DEFAULT;
  // Counted, then added: two creates at once may pass with one place left (the bound is soft by one).
  if ((await deps.runs.countQueuedOfOwner(run.ownerId)) >= max)
    throw new RateLimitedError(
      QUEUE_FULL_RETRY_AFTER_SEC,
      `The account has ${max} runs queued already, the most it may; retry once some have started.`,
      'run_queue_full',
    );
  const change = {
    projectId: run.projectId,
    action: 'run.create',
    target: { type: 'run', id: run.id },
  } as const;
  await deps.audit.record(caller, change, () => deps.runs.add(run));
  try {
    await deps.runQueue.enqueue({ runId: run.id, ownerId: run.ownerId });
  } catch (error) {
    const now = deps.clock.now();
    await endRunByCas(deps.runs, run, (r) =>
      r.end(
        {
          status: 'FAILED',
          error: { code: 'runner_failed', message: 'The run could not be queued.' },
          exitCode: null,
        },
        now,
      ),
    ).catch(() => {});
    deps.runChanges.notify(run.id);
    throw error;
  }
  return run;
}
