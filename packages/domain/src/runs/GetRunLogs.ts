import type { Caller } from '../access/Caller.ts';
import { projectForWork } from '../access/projectForWork.ts';
import type { ProjectRepository } from '../projects/ProjectRepository.ts';
import { Checks } from '../shared/checks.ts';
import { findRun } from './findRun.ts';
import type { RunLogLine, RunLogStore } from './RunLogStore.ts';
import type { RunRepository } from './RunRepository.ts';
import { readLogPage } from './readLogPage.ts';
import { RUN_LOGS_DEFAULT_LIMIT, RUN_LOGS_MAX_LIMIT } from './runRules.ts';

/** A run log cursor: the decimal `seq` of the last line read (`0`: from the start). */
const CURSOR = /^(0|[1-9][0-9]{0,15})$/;

/**
 * One page of a run's log lines (http-api.md §11), after `cursor` (the decimal `seq` of the last
 * line read; `0` or absent from the start), at most `limit` (1..1000, default 100) and at most
 * `RUN_PAGE_MAX_BYTES` (a page full of bytes holds fewer lines than `limit`). `nextCursor` is
 * the last line's `seq` (the cursor given when none is new yet), and null once the run has ended
 * and no line is left after this page.
 */
export class GetRunLogs {
  private readonly deps: { projects: ProjectRepository; runs: RunRepository; runLogs: RunLogStore };

  constructor(deps: { projects: ProjectRepository; runs: RunRepository; runLogs: RunLogStore }) {
    this.deps = deps;
  }

  async execute(input: {
    caller: Caller;
    projectId: string;
    runId: string;
    cursor?: string | undefined;
    limit?: number | undefined;
  }): Promise<{ logs: RunLogLine[]; nextCursor: string | null }> {
    const { cursor = '0', limit = RUN_LOGS_DEFAULT_LIMIT } = input;
    new Checks()
      .require(CURSOR.test(cursor), 'cursor', 'must be a cursor from an earlier page (a decimal seq)')
      .integerIn(limit, 'limit', 1, RUN_LOGS_MAX_LIMIT)
      .throwIfAny();
    const project = await projectForWork(this.deps.projects, input.caller, input.projectId, 'viewer', false);
    // Read before the lines: a run seen ended has stored every line (its worker flushes first).
    const run = await findRun(this.deps.runs, project.id, input.runId);
    const afterSeq = Number(cursor);
    const { lines: logs, full } = await readLogPage(this.deps.runLogs, run.id, afterSeq, limit);
    const last = logs.at(-1)?.seq ?? afterSeq;
    const exhausted = run.isTerminal && !full && logs.length < limit;
    return { logs, nextCursor: exhausted ? null : String(last) };
  }
}
