import type { Caller } from '../access/Caller.ts';
import { projectForWork } from '../access/projectForWork.ts';
import type { ProjectRepository } from '../projects/ProjectRepository.ts';
import type { Clock } from '../shared/Clock.ts';
import type { SessionRepository, SessionStats } from './SessionRepository.ts';
import type { StatsBucket } from './StatsSeries.ts';
import { type StatsSeriesRequest, statsSeriesQuery } from './statsSeriesRules.ts';

/** A project's statistics; with an `interval` asked for, its stats over time as well. */
export interface SessionStatsReport extends SessionStats {
  /** Present only when the request named an `interval`: every bucket, oldest first. */
  readonly series?: StatsBucket[];
}

/**
 * Aggregate statistics of a project's sessions, computed by the store, and optionally a series of
 * them per UTC hour or day (http-api.md §14). Both are taken at the same `now`.
 */
export class GetSessionStats {
  private readonly deps: { projects: ProjectRepository; sessions: SessionRepository; clock: Clock };

  constructor(deps: { projects: ProjectRepository; sessions: SessionRepository; clock: Clock }) {
    this.deps = deps;
  }

  async execute(
    input: { caller: Caller; projectId: string } & StatsSeriesRequest,
  ): Promise<SessionStatsReport> {
    const now = this.deps.clock.now();
    const query = statsSeriesQuery(input, now);
    const project = await projectForWork(this.deps.projects, input.caller, input.projectId, 'viewer', false);
    if (!query) return this.deps.sessions.stats(project.id, now);
    const [stats, series] = await Promise.all([
      this.deps.sessions.stats(project.id, now),
      this.deps.sessions.statsSeries(project.id, query),
    ]);
    return { ...stats, series };
  }
}
