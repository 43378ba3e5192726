import type { AccountUsage, UsageRepository } from '@browserdeck/domain';
import { sql } from 'kysely';
import type { BrowserdeckOrm } from './BrowserdeckOrm.ts';
import { isUuid, withDatabaseErrors } from './databaseErrors.ts';
import { type KyselyQueries, queriesOf } from './KyselyQueries.ts';
import { sessionDurations } from './querySessionStats.ts';

/** What `MikroOrmUsageRepository` needs. */
export interface MikroOrmUsageRepositoryDeps {
  orm: BrowserdeckOrm;
}

/**
 * `UsageRepository` on MikroORM (SQLite, PostgreSQL): two aggregate statements, the sessions and
 * the runs of the projects each account owns (`projects.owner_id`, so a transferred project's
 * history counts for its new owner, as its sessions and runs from now on do), grouped by owner in
 * the database; no session or run is loaded. Browser time is the session stats' own expression
 * (`sessionDurations`): each session from its start to its end, or to `now`, never below zero.
 */
export class MikroOrmUsageRepository implements UsageRepository {
  private readonly queries: KyselyQueries;

  constructor(deps: MikroOrmUsageRepositoryDeps) {
    this.queries = queriesOf(deps.orm);
  }

  async usageOf(userIds: readonly string[], now: Date): Promise<AccountUsage[]> {
    const ids = [...new Set(userIds.filter(isUuid))];
    const sums = ids.length === 0 ? new Map<string, AccountUsage>() : await this.sums(now, ids);
    return userIds.map((userId) => sums.get(userId) ?? unused(userId));
  }

  async usageOfAll(now: Date): Promise<AccountUsage[]> {
    const sums = await this.sums(now, null);
    return [...sums.values()].sort(
      (a, b) =>
        b.browserSeconds - a.browserSeconds || (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0),
    );
  }

  /** Usage of the owners `ownerIds` (null: every owner) that have any session or run. */
  private async sums(now: Date, ownerIds: string[] | null): Promise<Map<string, AccountUsage>> {
    const { db, dialect } = this.queries;
    const { sumUpToNow } = sessionDurations(dialect, now);
    let sessions = db
      .selectFrom('browser_sessions')
      .innerJoin('projects', 'projects.id', 'browser_sessions.project_id')
      .select((eb) => [
        'projects.owner_id as owner_id',
        eb.fn.countAll().as('n'),
        sql<unknown>`coalesce(${sumUpToNow}, 0)`.as('browser_sec'),
        sql<unknown>`coalesce(sum(${sql.ref('browser_sessions.proxy_bytes')}), 0)`.as('proxy_bytes'),
      ])
      .groupBy('projects.owner_id');
    let runs = db
      .selectFrom('runs')
      .innerJoin('projects', 'projects.id', 'runs.project_id')
      .select((eb) => ['projects.owner_id as owner_id', eb.fn.countAll().as('n')])
      .groupBy('projects.owner_id');
    if (ownerIds) {
      sessions = sessions.where('projects.owner_id', 'in', ownerIds);
      runs = runs.where('projects.owner_id', 'in', ownerIds);
    }
    const [sessionRows, runRows] = await withDatabaseErrors(async () => [
      await this.queries.rows(sessions),
      await this.queries.rows(runs),
    ]);
    const usage = new Map<string, AccountUsage>();
    // PostgreSQL answers bigint and numeric aggregates as strings.
    for (const row of sessionRows) {
      const userId = String(row.owner_id);
      usage.set(userId, {
        ...unused(userId),
        sessions: Number(row.n),
        browserSeconds: Number(row.browser_sec),
        proxyBytes: Number(row.proxy_bytes),
      });
    }
    for (const row of runRows) {
      const userId = String(row.owner_id);
      usage.set(userId, { ...(usage.get(userId) ?? unused(userId)), runs: Number(row.n) });
    }
    return usage;
  }
}

function unused(userId: string): AccountUsage {
  return { userId, browserSeconds: 0, sessions: 0, runs: 0, proxyBytes: 0 };
}
