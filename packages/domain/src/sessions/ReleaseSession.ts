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

/** Asks the provider to end a session, which becomes `COMPLETED`. Idempotent; terminal sessions are returned unchanged. */
export class ReleaseSession {
  private readonly deps: ReleaseSessionDeps;

  constructor(deps: ReleaseSessionDeps) {
    this.deps = deps;
  }

  async execute(input: { ownerId: string; projectId: string; sessionId: string }): Promise<BrowserSession> {
    const project = await projectForWork(this.deps.projects, input.ownerId, input.projectId, false);
    const session = await findSession(this.deps.sessions, project.id, input.sessionId);
    if (!session.isActive) return session;
    await this.deps.provider.release(session.providerSessionId);
    session.end('COMPLETED', this.deps.clock.now());
    await this.deps.sessions.update(session);
    return session;
  }
}
