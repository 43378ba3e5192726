import type { Caller } from '../auth/Caller.ts';
import type { ProjectRepository } from '../projects/ProjectRepository.ts';
import { projectForWork } from '../projects/projectForWork.ts';
import { Checks } from '../shared/checks.ts';
import type { SessionPage, SessionRepository } from './SessionRepository.ts';
import { SESSION_LIST_DEFAULT_LIMIT, SESSION_LIST_MAX_LIMIT } from './sessionRules.ts';
import type { SessionStatus } from './sessionStatus.ts';

/** A page of the project's sessions, newest first, served from the database. */
export class ListSessions {
  private readonly deps: { projects: ProjectRepository; sessions: SessionRepository };

  constructor(deps: { projects: ProjectRepository; sessions: SessionRepository }) {
    this.deps = deps;
  }

  async execute(input: {
    caller: Caller;
    projectId: string;
    status?: SessionStatus | undefined;
    limit?: number | undefined;
    offset?: number | undefined;
  }): Promise<SessionPage & { limit: number; offset: number }> {
    const limit = input.limit ?? SESSION_LIST_DEFAULT_LIMIT;
    const offset = input.offset ?? 0;
    new Checks()
      .require(
        Number.isInteger(limit) && limit >= 1 && limit <= SESSION_LIST_MAX_LIMIT,
        'limit',
        `must be 1 to ${SESSION_LIST_MAX_LIMIT}`,
      )
      .require(Number.isInteger(offset) && offset >= 0, 'offset', 'must be an integer ≥ 0')
      .throwIfAny();
    const project = await projectForWork(this.deps.projects, input.caller, input.projectId, false);
    const page = await this.deps.sessions.list(project.id, { status: input.status, limit, offset });
    return { ...page, limit, offset };
  }
}
