import type { AccountUsage, RunRepository, SessionRepository, UsageRepository } from '@browserdeck/domain';
import type { InMemoryProjectRepository } from './InMemoryProjectRepository.ts';

/** What `InMemoryUsageRepository` reads. */
export interface InMemoryUsageRepositoryDeps {
  projects: InMemoryProjectRepository;
  sessions: SessionRepository;
  runs: RunRepository;
}

/**
 * `UsageRepository` summed from the in-memory stores: an account's usage is that of the sessions
 * and runs of the projects it owns (each project's session stats, and its run count), as the
 * MikroORM store sums them over `projects.owner_id`.
 */
export class InMemoryUsageRepository implements UsageRepository {
  private readonly deps: InMemoryUsageRepositoryDeps;

  constructor(deps: InMemoryUsageRepositoryDeps) {
    this.deps = deps;
  }

  async usageOf(userIds: readonly string[], now: Date): Promise<AccountUsage[]> {
    return Promise.all(userIds.map((userId) => this.usageOfOne(userId, now)));
  }

  async usageOfAll(now: Date): Promise<AccountUsage[]> {
    const owners = [...new Set(this.deps.projects.all().map((p) => p.ownerId))];
    const usage = await this.usageOf(owners, now);
    return usage
      .filter((u) => u.sessions > 0 || u.runs > 0)
      .sort((a, b) => b.browserSeconds - a.browserSeconds || (a.userId < b.userId ? -1 : 1));
  }

  private async usageOfOne(userId: string, now: Date): Promise<AccountUsage> {
    let usage = { userId, browserSeconds: 0, sessions: 0, runs: 0, proxyBytes: 0 };
    for (const projectId of await this.deps.projects.listOwnedIds(userId)) {
      const stats = await this.deps.sessions.stats(projectId, now);
      const { total: runs } = await this.deps.runs.list(projectId, { offset: 0, limit: 1 });
      usage = {
        userId,
        browserSeconds: usage.browserSeconds + stats.totalBrowserSec,
        sessions: usage.sessions + stats.total,
        runs: usage.runs + runs,
        proxyBytes: usage.proxyBytes + stats.totalProxyBytes,
      };
    }
    return usage;
  }
}
