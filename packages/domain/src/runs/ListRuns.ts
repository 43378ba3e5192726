import type { Caller } from '../access/Caller.ts';
import { projectForWork } from '../access/projectForWork.ts';
import type { ProjectRepository } from '../projects/ProjectRepository.ts';
import { Checks, jsonByteLength } from '../shared/checks.ts';
import type { Run } from './Run.ts';
import type { RunRepository } from './RunRepository.ts';
import { RUN_LIST_DEFAULT_LIMIT, RUN_LIST_MAX_LIMIT, RUN_PAGE_MAX_BYTES } from './runRules.ts';
import { RUN_STATUSES, type RunStatus } from './runStatus.ts';

/** Which runs `ListRuns` answers: filters, and the page (`limit` 1..100, default 20; `offset` ≥ 0). */
export interface RunsQuery {
  readonly agentId?: string | undefined;
  readonly sessionId?: string | undefined;
  readonly status?: RunStatus | undefined;
  readonly limit?: number | undefined;
  readonly offset?: number | undefined;
}

/**
 * A project's runs, newest first, filtered and paged (http-api.md §11): at most `limit`, and at most
 * `RUN_PAGE_MAX_BYTES` of them (a page full of bytes holds fewer; the next `offset` is `offset` plus
 * the runs answered).
 */
export class ListRuns {
  private readonly deps: { projects: ProjectRepository; runs: RunRepository };

  constructor(deps: { projects: ProjectRepository; runs: RunRepository }) {
    this.deps = deps;
  }

  async execute(input: {
    caller: Caller;
    projectId: string;
    query: RunsQuery;
  }): Promise<{ runs: Run[]; total: number; limit: number; offset: number }> {
    const { agentId, sessionId, status, limit = RUN_LIST_DEFAULT_LIMIT, offset = 0 } = input.query;
    new Checks()
      .integerIn(limit, 'limit', 1, RUN_LIST_MAX_LIMIT)
      .require(Number.isInteger(offset) && offset >= 0, 'offset', 'must be an integer of 0 or more')
      .require(
        status === undefined || RUN_STATUSES.includes(status),
        'status',
        `must be one of ${RUN_STATUSES.join(', ')}`,
      )
      .throwIfAny();
    const project = await projectForWork(this.deps.projects, input.caller, input.projectId, 'viewer', false);
    const filter = { agentId, sessionId, status };
    const runs: Run[] = [];
    let bytes = 0;
    let total = 0;
    // A few at a time: a run holds up to a 1 MiB result, and a page at most `RUN_PAGE_MAX_BYTES`.
    while (runs.length < limit) {
      const want = Math.min(CHUNK, limit - runs.length);
      const page = await this.deps.runs.list(project.id, {
        ...filter,
        limit: want,
        offset: offset + runs.length,
      });
      total = page.total;
      for (const run of page.runs) {
        const size = runAnswerBytes(run);
        if (runs.length > 0 && bytes + size > RUN_PAGE_MAX_BYTES) return { runs, total, limit, offset };
        runs.push(run);
        bytes += size;
      }
      if (page.runs.length < want) break;
    }
    return { runs, total, limit, offset };
  }
}

/** Runs read from the repository at a time. */
const CHUNK = 10;
/** What a run's answer holds besides its input, result and error (ids, times, numbers). */
const RUN_OVERHEAD_BYTES = 512;

/** About how many bytes `run` takes in a page's JSON. */
function runAnswerBytes(run: Run): number {
  return (
    RUN_OVERHEAD_BYTES + jsonByteLength(run.input) + jsonByteLength(run.result) + jsonByteLength(run.error)
  );
}
