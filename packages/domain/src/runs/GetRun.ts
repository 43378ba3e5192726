import type { Caller } from '../access/Caller.ts';
import { projectForWork } from '../access/projectForWork.ts';
import type { ProjectRepository } from '../projects/ProjectRepository.ts';
import type { Clock } from '../shared/Clock.ts';
import type { StopSignal } from '../shared/StopSignal.ts';
import { findRun } from './findRun.ts';
import type { Run } from './Run.ts';
import type { RunChanges } from './RunChanges.ts';
import type { RunRepository } from './RunRepository.ts';
import type { RunWaiters } from './RunWaiters.ts';
import { checkWaitSec } from './runInputRules.ts';
import { watchRun } from './watchRun.ts';

export interface GetRunDeps {
  projects: ProjectRepository;
  runs: RunRepository;
  runChanges: RunChanges;
  clock: Clock;
  /** The account's waiters, shared with the log streams (`RUN_MAX_WAITERS_PER_OWNER`). */
  waiters: RunWaiters;
}

/**
 * One run of the project. With `waitSec` (0..60, `wait` of http-api.md §11) it holds the answer
 * until the run is terminal or the wait is over, whichever comes first, re-reading the run each
 * time it is told it may have changed (`RunChanges`, never on a timer); `signal` (the client went
 * away) ends the wait early. A wait counts as one of the account's waiters: past its most, it is
 * refused with 429 `rate_limited`, or, with `whenWaitersFull: 'answer'` (a create that waits), the
 * run is answered as it is.
 */
export class GetRun {
  private readonly deps: GetRunDeps;

  constructor(deps: GetRunDeps) {
    this.deps = deps;
  }

  async execute(input: {
    caller: Caller;
    projectId: string;
    runId: string;
    waitSec?: number | undefined;
    signal?: StopSignal | undefined;
    whenWaitersFull?: 'refuse' | 'answer' | undefined;
  }): Promise<Run> {
    const waitSec = input.waitSec ?? 0;
    checkWaitSec(waitSec);
    const { runs, clock } = this.deps;
    const project = await projectForWork(this.deps.projects, input.caller, input.projectId, 'viewer', false);
    const run = await findRun(runs, project.id, input.runId);
    if (waitSec === 0 || run.isTerminal) return run;
    let leave: () => void;
    try {
      leave = this.deps.waiters.enter(project.ownerId);
    } catch (error) {
      if (input.whenWaitersFull !== 'answer') throw error;
      return run;
    }
    try {
      return await this.waitFor(
        project.id,
        input.runId,
        clock.now().getTime() + waitSec * 1000,
        input.signal,
      );
    } finally {
      leave();
    }
  }

  private async waitFor(
    projectId: string,
    runId: string,
    deadline: number,
    signal?: StopSignal,
  ): Promise<Run> {
    const { runs, runChanges, clock } = this.deps;
    for (;;) {
      const remainingMs = deadline - clock.now().getTime();
      const watch =
        remainingMs > 0 && !signal?.aborted ? watchRun(runChanges, runId, remainingMs, signal) : null;
      try {
        const run = await findRun(runs, projectId, runId);
        if (run.isTerminal || !watch || signal?.aborted) return run;
        await watch.changed;
      } finally {
        watch?.stop();
      }
    }
  }
}
