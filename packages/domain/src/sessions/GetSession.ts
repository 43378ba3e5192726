import { authorizeProject } from '../access/authorizeProject.ts';
import type { Caller } from '../access/Caller.ts';
import { seesSecrets } from '../access/secretMasking.ts';
import type { ProjectRepository } from '../projects/ProjectRepository.ts';
import type { BrowserProvider } from '../providers/BrowserProvider.ts';
import type { Clock } from '../shared/Clock.ts';
import type { ErrorCode } from '../shared/DomainError.ts';
import { type Logger, silentLogger } from '../shared/Logger.ts';
import type { BrowserSession } from './BrowserSession.ts';
import { findSession } from './findSession.ts';
import type { SessionRepository } from './SessionRepository.ts';
import { syncSession } from './syncSession.ts';

export interface GetSessionDeps {
  projects: ProjectRepository;
  sessions: SessionRepository;
  provider: BrowserProvider;
  clock: Clock;
  /** Told when a refresh could not be stored. */
  logger?: Logger;
}

/**
 * One session, refreshed from the provider first when it is still active. When the provider cannot
 * be reached, or its answer cannot be stored, the stored state is returned with `syncError` set
 * (the HTTP layer's `X-Sync-Error`); the reconciler retries it, and ends it as `ERROR` if it must.
 * A session whose browser another instance holds is read from any instance: answered as stored,
 * with `syncError` `session_on_other_instance` (see `syncSession`). A viewer reads it masked.
 */
export class GetSession {
  private readonly deps: GetSessionDeps;

  constructor(deps: GetSessionDeps) {
    this.deps = deps;
  }

  async execute(input: {
    caller: Caller;
    projectId: string;
    sessionId: string;
    /** False: the stored state as it is, without asking the provider (default true). */
    refresh?: boolean | undefined;
  }): Promise<{ session: BrowserSession; syncError: ErrorCode | null }> {
    const { project, role } = await authorizeProject(
      this.deps.projects,
      input.caller,
      input.projectId,
      'viewer',
    );
    const session = await findSession(this.deps.sessions, project.id, input.sessionId);
    const answer = await this.read(session, input.refresh ?? true);
    return seesSecrets(role) ? answer : { ...answer, session: answer.session.masked() };
  }

  private async read(
    session: BrowserSession,
    refresh: boolean,
  ): Promise<{ session: BrowserSession; syncError: ErrorCode | null }> {
    if (!refresh) return { session, syncError: null };
    const sync = await syncSession(session, this.deps);
    if (sync.unstored) {
      (this.deps.logger ?? silentLogger).warn(
        { sessionId: session.id, error: String(sync.unstored.error) },
        'session refresh could not be stored; answering the stored state',
      );
    }
    return { session: sync.session, syncError: sync.syncError };
  }
}
