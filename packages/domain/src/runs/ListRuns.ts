import type { Caller } from '../auth/Caller.ts';
import type { ProjectRepository } from '../projects/ProjectRepository.ts';
import { projectForWork } from '../projects/projectForWork.ts';
import { Checks } from '../shared/checks.ts';
import type { Run } from './Run.ts';
import type { RunRepository } from './RunRepository.ts';
import { RUN_LIST_DEFAULT_LIMIT, RUN_LIST_MAX_LIMIT } from './runRules.ts';
import { RUN_STATUSES, type RunStatus } from './runStatus.ts';

/** Which runs `ListRuns` answers: filters, and the page (`limit` 1..100, default 20; `offset` ≥ 0). */
export interface RunsQuery {
  readonly agentId?: string | undefined;
  readonly sessionId?: string | undefined;
  readonly status?: RunStatus | undefined;
  readonly limit?: number | undefined;
  readonly offset?: number | undefined;
}

/** A project's runs, newest first, filtered and paged (http-api.md §11). */
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
    const project = await projectForWork(this.deps.projects, input.caller, input.projectId, false);
    const page = await this.deps.runs.list(project.id, { agentId, sessionId, status, limit, offset });
    return { runs: page.runs, total: page.total, limit, offset };
  }
}
