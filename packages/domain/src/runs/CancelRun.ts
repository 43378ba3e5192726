import type { Caller } from '../access/Caller.ts';
import { projectForWork } from '../access/projectForWork.ts';
import type { ProjectRepository } from '../projects/ProjectRepository.ts';
import type { Clock } from '../shared/Clock.ts';
import { NotFoundError } from '../shared/DomainError.ts';
import { endRunByCas } from './endRunByCas.ts';
import { findRun } from './findRun.ts';
import type { Run } from './Run.ts';
import type { RunChanges } from './RunChanges.ts';
import type { RunQueue } from './RunQueue.ts';
import type { RunRepository } from './RunRepository.ts';

export interface CancelRunDeps {
  projects: ProjectRepository;
  runs: RunRepository;
  runQueue: RunQueue;
  runChanges: RunChanges;
  clock: Clock;
}

/**
 * Cancels a QUEUED or RUNNING run (http-api.md §11): it is stored CANCELED compare-and-set (a race
 * lost to its worker is re-read and tried again), then this instance's worker executing it, if
 * any, is interrupted; a worker elsewhere stops at its next heartbeat, and releases the session
 * the run created. Idempotent: a run that has ended is returned as it is.
 */
export class CancelRun {
  private readonly deps: CancelRunDeps;

  constructor(deps: CancelRunDeps) {
    this.deps = deps;
  }

  async execute(input: { caller: Caller; projectId: string; runId: string }): Promise<Run> {
    const project = await projectForWork(
      this.deps.projects,
      input.caller,
      input.projectId,
      'developer',
      false,
    );
    const run = await findRun(this.deps.runs, project.id, input.runId);
    if (run.isTerminal) return run;
    const now = this.deps.clock.now();
    const { run: stored, changed } = await endRunByCas(this.deps.runs, run, (r) => r.cancel(now));
    if (!stored || stored.projectId !== project.id) throw new NotFoundError('Run');
    if (changed) {
      this.deps.runQueue.interrupt(stored.id);
      this.deps.runChanges.notify(stored.id);
    }
    return stored;
  }
}
