import { ACTIVE_SESSION_STATUSES } from '@browserdeck/domain';
import type { BrowserdeckOrm } from './BrowserdeckOrm.ts';
import { withDatabaseErrors } from './databaseErrors.ts';
import { BrowserSessionSchema } from './entities/BrowserSessionSchema.ts';

/** Sessions in every project that are PENDING or RUNNING (the `/metrics` active-sessions gauge). */
export function countActiveSessions(orm: BrowserdeckOrm): Promise<number> {
  return withDatabaseErrors(() =>
    orm.em.fork().count(BrowserSessionSchema, { status: { $in: [...ACTIVE_SESSION_STATUSES] } }),
  );
}
