import type { Caller } from '../auth/Caller.ts';
import type { ProjectRepository } from '../projects/ProjectRepository.ts';
import { projectForWork } from '../projects/projectForWork.ts';
import type { Clock } from '../shared/Clock.ts';
import type { SessionRepository, SessionStats } from './SessionRepository.ts';

/** Aggregate statistics of a project's sessions, computed by the store. */
export class GetSessionStats {
  private readonly deps: { projects: ProjectRepository; sessions: SessionRepository; clock: Clock };

  constructor(deps: { projects: ProjectRepository; sessions: SessionRepository; clock: Clock }) {
    this.deps = deps;
  }

  async execute(input: { caller: Caller; projectId: string }): Promise<SessionStats> {
    const project = await projectForWork(this.deps.projects, input.caller, input.projectId, false);
    return this.deps.sessions.stats(project.id, this.deps.clock.now());
  }
}
