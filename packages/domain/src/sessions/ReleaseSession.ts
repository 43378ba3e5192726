import type { Caller } from '../access/Caller.ts';
import { projectForWork } from '../access/projectForWork.ts';
import type { ProjectRepository } from '../projects/ProjectRepository.ts';
import type { BrowserProvider } from '../providers/BrowserProvider.ts';
import type { Clock } from '../shared/Clock.ts';
import type { BrowserSession } from './BrowserSession.ts';
import { findSession } from './findSession.ts';
import { SessionOnOtherInstanceError } from './SessionOnOtherInstanceError.ts';
import type { SessionRepository } from './SessionRepository.ts';
import { sessionReach } from './sessionReach.ts';
import { statusAfterRelease } from './sessionStatus.ts';

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
 *
 * A session whose browser another instance holds is refused with `session_on_other_instance` and
 * left as stored (this instance cannot stop that browser); once it is past its end of life by the
 * grace (`sessionReach`), it is over anyway and is stored `TIMED_OUT`, ended at its end of life.
 */
export class ReleaseSession {
  private readonly deps: ReleaseSessionDeps;

  constructor(deps: ReleaseSessionDeps) {
    this.deps = deps;
  }

  async execute(input: { caller: Caller; projectId: string; sessionId: string }): Promise<BrowserSession> {
    const project = await projectForWork(
      this.deps.projects,
      input.caller,
      input.projectId,
      'developer',
      false,
    );
    const session = await findSession(this.deps.sessions, project.id, input.sessionId);
    if (!session.isActive) return session;
    const reach = sessionReach(session, this.deps.provider, this.deps.clock.now());
    if (reach === 'elsewhere') throw new SessionOnOtherInstanceError();
    if (reach === 'expired_elsewhere')
      return this.storeEnded(session, (s) => s.expire(this.deps.clock.now()));
    const reported = await this.deps.provider.sessions.release(
      session.providerSessionId,
      session.providerProjectId,
    );
    const status = statusAfterRelease(reported);
    const endedAt = reported?.endedAt ?? this.deps.clock.now();
    return this.storeEnded(
      session,
      (s) => s.end(status, endedAt),
      (s) => s.end(status, this.deps.clock.now()),
    );
  }

  /**
   * Stores `session` ended by `end`; when the whole row cannot be stored, stores the status alone,
   * ended by `endAgain` (default `end`) on the session as it was.
   */
  private async storeEnded(
    session: BrowserSession,
    end: (session: BrowserSession) => void,
    endAgain = end,
  ): Promise<BrowserSession> {
    const stored = session.answer;
    end(session);
    try {
      await this.deps.sessions.update(session);
      return session;
    } catch (error) {
      const ended = session.asAnswered(stored);
      endAgain(ended);
      // Values the service sets itself; should this fail too, the first error is the one to report.
      await this.deps.sessions.updateStatus(ended).catch(() => Promise.reject(error));
      return ended;
    }
  }
}
