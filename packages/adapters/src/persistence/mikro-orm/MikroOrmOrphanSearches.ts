import type { OrphanSearch, OrphanSearches } from '../../browsers/orphans/OrphanSearches.ts';
import type { BrowserdeckOrm } from './BrowserdeckOrm.ts';
import { withDatabaseErrors } from './databaseErrors.ts';
import { OrphanSearchSchema } from './entities/OrphanSearchSchema.ts';
import { type KyselyQueries, queriesOf } from './KyselyQueries.ts';

/** What a search is read with: every column but the lease. */
const COLUMNS = [
  'session_id',
  'provider',
  'provider_project_id',
  'attempt',
  'next_at',
  'created_at',
] as const;

/**
 * `OrphanSearches` in the service's database (`provider_orphan_searches`), so the search for a
 * browser left by a failed create survives a restart and any instance with the provider carries it
 * on. The claim leases rows like the reconciler's: one `update … where session_id in (select … limit
 * … for update skip locked) returning …`. On PostgreSQL concurrent claimers skip each other's locked
 * rows; SQLite has no row locks and serializes writers, so there the plain statement is already exclusive.
 */
export class MikroOrmOrphanSearches implements OrphanSearches {
  private readonly queries: KyselyQueries;

  constructor(deps: { orm: BrowserdeckOrm }) {
    this.queries = queriesOf(deps.orm);
  }

  async add(search: OrphanSearch): Promise<void> {
    const { sessionId, provider, providerProjectId, attempt, nextAt, createdAt } = search;
    const { db } = this.queries;
    await withDatabaseErrors(() =>
      this.queries.run(
        db
          .insertInto('provider_orphan_searches')
          .values({
            session_id: sessionId,
            provider,
            provider_project_id: providerProjectId,
            attempt,
            next_at: nextAt,
            created_at: createdAt,
            lease_until: null,
          })
          .onConflict((oc) => oc.column('session_id').doNothing()),
      ),
    );
  }

  async claimDue(provider: string, now: Date, leaseUntil: Date, limit: number): Promise<OrphanSearch[]> {
    if (limit <= 0) return [];
    const { db, dialect } = this.queries;
    const due = db
      .selectFrom('provider_orphan_searches')
      .select('session_id')
      .where('provider', '=', provider)
      .where('next_at', '<=', now)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<=', now)]))
      .orderBy('next_at')
      .orderBy('session_id')
      .limit(Math.floor(limit))
      .$if(dialect === 'postgresql', (q) => q.forUpdate().skipLocked());
    const rows = await withDatabaseErrors(() =>
      this.queries.entities(
        OrphanSearchSchema,
        db
          .updateTable('provider_orphan_searches')
          .set({ lease_until: leaseUntil })
          .where('session_id', 'in', due)
          .returning(COLUMNS),
      ),
    );
    // `returning` keeps no order: earliest due first, as claimed.
    return rows
      .map(
        (row): OrphanSearch => ({
          sessionId: row.sessionId as string,
          provider: row.provider as string,
          providerProjectId: (row.providerProjectId as string | null | undefined) ?? null,
          attempt: Number(row.attempt),
          nextAt: row.nextAt as Date,
          createdAt: row.createdAt as Date,
        }),
      )
      .sort((a, b) => a.nextAt.getTime() - b.nextAt.getTime() || (a.sessionId < b.sessionId ? -1 : 1));
  }

  async reschedule(sessionId: string, attempt: number, nextAt: Date): Promise<void> {
    const { db } = this.queries;
    await withDatabaseErrors(() =>
      this.queries.run(
        db
          .updateTable('provider_orphan_searches')
          .set({ attempt, next_at: nextAt, lease_until: null })
          .where('session_id', '=', sessionId),
      ),
    );
  }

  async remove(sessionId: string): Promise<void> {
    const { db } = this.queries;
    await withDatabaseErrors(() =>
      this.queries.run(db.deleteFrom('provider_orphan_searches').where('session_id', '=', sessionId)),
    );
  }
}
