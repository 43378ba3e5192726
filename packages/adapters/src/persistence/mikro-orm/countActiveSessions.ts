import { ACTIVE_SESSION_STATUSES } from '@browserdeck/domain';
import type { BrowserdeckOrm } from './BrowserdeckOrm.ts';
import { withDatabaseErrors } from './databaseErrors.ts';
import { queriesOf } from './KyselyQueries.ts';

/** Sessions in every project that are PENDING or RUNNING (the `/metrics` active-sessions gauge). */
export async function countActiveSessions(orm: BrowserdeckOrm): Promise<number> {
  const queries = queriesOf(orm);
  const [row] = await withDatabaseErrors(() =>
    queries.rows(
      queries.db
        .selectFrom('browser_sessions')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('status', 'in', [...ACTIVE_SESSION_STATUSES]),
    ),
  );
  // PostgreSQL answers a count as a string (bigint).
  return Number(row?.n ?? 0);
}
