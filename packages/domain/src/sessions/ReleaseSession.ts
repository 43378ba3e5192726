import type { ProjectRepository } from '../projects/ProjectRepository.ts';
import { projectForWork } from '../projects/projectForWork.ts';
import type { Clock } from '../shared/Clock.ts';
import type { BrowserProvider } from './BrowserProvider.ts';
import type { BrowserSession } from './BrowserSession.ts';
import { findSession } from './findSession.ts';
import type { SessionRepository } from './SessionRepository.ts';

export interface ReleaseSessionDeps {
  projects: ProjectRepository;
  sessions: SessionRepository;
  provider: BrowserProvider;
  clock: Clock;
}

/**
 * Asks the provider to end a session, which becomes `COMPLETED` (or the `ERROR`/`TIMED_OUT` the
 * provider reports it already ended with). Idempotent; terminal sessions are returned unchanged.
 * When the ended session cannot be stored whole (a value from the provider the database refuses),
 * its status is stored alone, ended now: the browser is gone, so the session must not stay active.
 */
export class ReleaseSession {
  private readonly deps: ReleaseSessionDeps;

  constructor(deps: ReleaseSessionDeps) {
    this.deps = deps;
  }

  async execute(input: { ownerId: string; projectId: string; sessionId: string }): Promise<BrowserSession> {
    const project = await projectForWork(this.deps.projects, input.ownerId, input.projectId, false);
    const session = await findSession(this.deps.sessions, project.id, input.sessionId);
    if (!session.isActive) return session;
    const reported = await this.deps.provider.release(session.providerSessionId, session.providerProjectId);
    // A session that had already ended on the provider's side keeps the reason it ended for.
    const status =
      reported && (reported.status === 'ERROR' || reported.status === 'TIMED_OUT')
        ? reported.status
        : 'COMPLETED';
    const stored = session.answer;
    session.end(status, reported?.endedAt ?? this.deps.clock.now());
    try {
      await this.deps.sessions.update(session);
      return session;
    } catch (error) {
      const ended = session.asAnswered(stored);
      ended.end(status, this.deps.clock.now());
      // Values the service sets itself; should this fail too, the first error is the one to report.
      await this.deps.sessions.updateStatus(ended).catch(() => Promise.reject(error));
      return ended;
    }
  }
}
