import type { Caller } from '../auth/Caller.ts';
import type { ProjectRepository } from '../projects/ProjectRepository.ts';
import { projectForWork } from '../projects/projectForWork.ts';
import type { Clock } from '../shared/Clock.ts';
import type { StopSignal } from '../shared/StopSignal.ts';
import { findRun } from './findRun.ts';
import type { Run } from './Run.ts';
import type { RunChanges } from './RunChanges.ts';
import type { RunRepository } from './RunRepository.ts';
import { checkWaitSec } from './runInputRules.ts';
import { watchRun } from './watchRun.ts';

export interface GetRunDeps {
  projects: ProjectRepository;
  runs: RunRepository;
  runChanges: RunChanges;
  clock: Clock;
}

/**
 * One run of the project. With `waitSec` (0..60, `wait` of http-api.md §11) it holds the answer
 * until the run is terminal or the wait is over, whichever comes first, re-reading the run each
 * time it may have changed; `signal` (the client went away) ends the wait early.
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
  }): Promise<Run> {
    const waitSec = input.waitSec ?? 0;
    checkWaitSec(waitSec);
    const { runs, runChanges, clock } = this.deps;
    const project = await projectForWork(this.deps.projects, input.caller, input.projectId, false);
    const deadline = clock.now().getTime() + waitSec * 1000;
    for (;;) {
      const remainingMs = deadline - clock.now().getTime();
      const watch =
        remainingMs > 0 && !input.signal?.aborted
          ? watchRun(runChanges, input.runId, remainingMs, input.signal)
          : null;
      try {
        const run = await findRun(runs, project.id, input.runId);
        if (run.isTerminal || !watch || input.signal?.aborted) return run;
        await watch.changed;
      } finally {
        watch?.stop();
      }
    }
  }
}
