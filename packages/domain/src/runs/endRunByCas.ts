import type { Run } from './Run.ts';
import type { RunRepository } from './RunRepository.ts';

/** How many times a lost race is re-read and retried: each loss means the run moved on. */
const MAX_ATTEMPTS = 8;

/**
 * Applies `end` (a terminal change: `run.cancel(…)`, `run.end(…)`) and stores it compare-and-set on
 * the status it had; on a lost race it re-reads the run and tries again, so a change made meanwhile
 * (a cancel, a worker's end) is never overwritten. `changed` is false when the run had ended
 * already (`run` is then the stored one) or `end` refused; `run` is null once it is gone.
 */
export async function endRunByCas(
  runs: RunRepository,
  run: Run,
  end: (run: Run) => boolean,
): Promise<{ run: Run | null; changed: boolean }> {
  let current: Run | null = run;
  for (let attempt = 0; attempt < MAX_ATTEMPTS && current; attempt++) {
    const expected = current.status;
    if (!end(current)) return { run: current, changed: false };
    if (await runs.update(current, expected)) return { run: current, changed: true };
    current = await runs.findById(run.id);
  }
  if (!current) return { run: null, changed: false };
  throw new Error(`run ${run.id} kept changing; it could not be ended`);
}
