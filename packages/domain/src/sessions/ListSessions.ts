import { authorizeProject } from '../access/authorizeProject.ts';
import type { Caller } from '../access/Caller.ts';
import { seesSecrets } from '../access/secretMasking.ts';
import type { ProjectRepository } from '../projects/ProjectRepository.ts';
import { Checks } from '../shared/checks.ts';
import { ValidationError } from '../shared/DomainError.ts';
import { parseMetadataQuery } from './metadataQuery.ts';
import { metadataFilterProblem } from './metadataRules.ts';
import type { MetadataFilter, SessionPage, SessionRepository } from './SessionRepository.ts';
import { SESSION_LIST_DEFAULT_LIMIT, SESSION_LIST_MAX_LIMIT } from './sessionRules.ts';
import type { SessionStatus } from './sessionStatus.ts';

/**
 * A page of the project's sessions, newest first, served from the database; with `status` and a
 * metadata filter (`metadata`, or Browserbase's `q` text as `metadataQuery`: see
 * `parseMetadataQuery`), only those that match. A viewer reads them masked (`BrowserSession.masked`).
 */
export class ListSessions {
  private readonly deps: { projects: ProjectRepository; sessions: SessionRepository };

  constructor(deps: { projects: ProjectRepository; sessions: SessionRepository }) {
    this.deps = deps;
  }

  async execute(input: {
    caller: Caller;
    projectId: string;
    status?: SessionStatus | undefined;
    metadata?: MetadataFilter | undefined;
    /** Browserbase's `q` (`user_metadata['key']:'value'`); a malformed one is a `validation_failed` on `q`. */
    metadataQuery?: string | undefined;
    limit?: number | undefined;
    offset?: number | undefined;
  }): Promise<SessionPage & { limit: number; offset: number }> {
    const limit = input.limit ?? SESSION_LIST_DEFAULT_LIMIT;
    const offset = input.offset ?? 0;
    if (input.metadata && input.metadataQuery !== undefined)
      throw ValidationError.field('q', 'cannot be combined with a metadata filter');
    const metadata =
      input.metadataQuery === undefined ? input.metadata : parseMetadataQuery(input.metadataQuery);
    const metadataProblem = metadata && metadataFilterProblem(metadata);
    new Checks()
      .require(
        Number.isInteger(limit) && limit >= 1 && limit <= SESSION_LIST_MAX_LIMIT,
        'limit',
        `must be 1 to ${SESSION_LIST_MAX_LIMIT}`,
      )
      .require(Number.isInteger(offset) && offset >= 0, 'offset', 'must be an integer ≥ 0')
      .require(metadataProblem === undefined, 'metadata', metadataProblem ?? '')
      .throwIfAny();
    const { project, role } = await authorizeProject(
      this.deps.projects,
      input.caller,
      input.projectId,
      'viewer',
    );
    const page = await this.deps.sessions.list(project.id, { status: input.status, metadata, limit, offset });
    const sessions = seesSecrets(role) ? page.sessions : page.sessions.map((session) => session.masked());
    return { ...page, sessions, limit, offset };
  }
}
