import type { Caller } from '../access/Caller.ts';
import { projectForWork } from '../access/projectForWork.ts';
import type { ProjectRepository } from '../projects/ProjectRepository.ts';
import type { StopSignal } from '../shared/StopSignal.ts';
import { findRun } from './findRun.ts';
import type { Run } from './Run.ts';
import type { RunChanges } from './RunChanges.ts';
import type { RunLogLine, RunLogStore } from './RunLogStore.ts';
import type { RunRepository } from './RunRepository.ts';
import type { RunWaiters } from './RunWaiters.ts';
import { readLogPage } from './readLogPage.ts';
import { RUN_LOGS_MAX_LIMIT } from './runRules.ts';
import { watchRun } from './watchRun.ts';

/** What a log follower yields: each line as it is stored, then the run once it has ended. */
export type RunLogEvent =
  | { readonly type: 'line'; readonly line: RunLogLine }
  | { readonly type: 'end'; readonly run: Run };

/**
 * How long a follower waits for a change before it looks again anyway: a backstop for a notification
 * lost with a connection, not a poll (changes wake it: `RunChanges`).
 */
const BACKSTOP_MS = 60_000;

export interface FollowRunLogsDeps {
  projects: ProjectRepository;
  runs: RunRepository;
  runLogs: RunLogStore;
  runChanges: RunChanges;
  /** The account's waiters, shared with `wait` long polls (`RUN_MAX_WAITERS_PER_OWNER`). */
  waiters: RunWaiters;
}

/**
 * Follows a run's logs (the SSE stream of http-api.md §11). `execute` authorises first (a
 * `not_found` rejects it, before any stream starts) and resolves to the events: every line after
 * `afterSeq` as it is stored, then, once the run has ended and its last lines are read, one `end`
 * with the ended run. It stops quietly when `signal` aborts, or when the run is deleted. It waits
 * for changes (`RunChanges`), never reading on a timer, and counts as one of the account's waiters
 * until it ends: past the account's most, `execute` is refused with 429 `rate_limited`.
 */
export class FollowRunLogs {
  private readonly deps: FollowRunLogsDeps;

  constructor(deps: FollowRunLogsDeps) {
    this.deps = deps;
  }

  async execute(input: {
    caller: Caller;
    projectId: string;
    runId: string;
    afterSeq: number;
    signal: StopSignal;
  }): Promise<AsyncIterable<RunLogEvent>> {
    const project = await projectForWork(this.deps.projects, input.caller, input.projectId, 'viewer', false);
    const run = await findRun(this.deps.runs, project.id, input.runId);
    const leave = this.deps.waiters.enter(project.ownerId);
    // Left when the stream ends, and when the client goes (a stream never read ends no generator).
    input.signal.addEventListener('abort', leave, { once: true });
    const lines = this.follow(project.id, run.id, Math.max(0, Math.trunc(input.afterSeq)), input.signal);
    return {
      async *[Symbol.asyncIterator]() {
        try {
          yield* lines;
        } finally {
          leave();
          input.signal.removeEventListener('abort', leave);
        }
      },
    };
  }

  private async *follow(
    projectId: string,
    runId: string,
    afterSeq: number,
    signal: StopSignal,
  ): AsyncGenerator<RunLogEvent> {
    const { runs, runLogs, runChanges } = this.deps;
    let seq = afterSeq;
    let watch = watchRun(runChanges, runId, BACKSTOP_MS, signal);
    try {
      // Read again with the waiter in place: an end stored since `execute` read it wakes the first wait.
      let run = await runs.findInProject(projectId, runId);
      while (run && !signal.aborted) {
        // The run as it was before this read: once it had ended, every line of it is stored.
        const ended = run.isTerminal;
        for (;;) {
          const page = await readLogPage(runLogs, run.id, seq, RUN_LOGS_MAX_LIMIT);
          for (const line of page.lines) {
            if (signal.aborted) return;
            seq = line.seq;
            yield { type: 'line', line };
          }
          if (!page.full && page.lines.length < RUN_LOGS_MAX_LIMIT) break;
        }
        if (ended) {
          yield { type: 'end', run };
          return;
        }
        await watch.changed;
        watch.stop();
        // In place before the run is read again, so an end stored meanwhile wakes the next wait.
        watch = watchRun(runChanges, run.id, BACKSTOP_MS, signal);
        run = await runs.findInProject(projectId, run.id);
      }
    } finally {
      watch.stop();
    }
  }
}
