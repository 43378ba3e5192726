import type { Clock } from '../shared/Clock.ts';
import { endRunByCas } from './endRunByCas.ts';
import type { Run } from './Run.ts';
import type { RunChanges } from './RunChanges.ts';
import type { RunQueue } from './RunQueue.ts';
import type { RunRepository } from './RunRepository.ts';

/**
 * Stores a new run and queues it for a worker. When the queue refuses it, the run ends FAILED
 * `runner_failed` (nothing would ever pick it up) and the queue's error is thrown.
 */
export async function queueNewRun(
  deps: { runs: RunRepository; runQueue: RunQueue; runChanges: RunChanges; clock: Clock },
  run: Run,
): Promise<Run> {
  await deps.runs.add(run);
  try {
    await deps.runQueue.enqueue(run.id);
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
