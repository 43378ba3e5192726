import { sql } from 'kysely';
import {
  SESSION_SHARE_STALE_AFTER_MS,
  type SessionShare,
  type SessionShareAnswer,
  type SessionShares,
} from '../../browsers/shared-state/SessionShares.ts';
import type { BrowserdeckOrm } from './BrowserdeckOrm.ts';
import { withDatabaseErrors } from './databaseErrors.ts';
import { type KyselyQueries, queriesOf } from './KyselyQueries.ts';

/**
 * `SessionShares` in the service's database (`session_shares`), so an account's share of local
 * sessions holds across every instance on it. A claim is one transaction: on PostgreSQL it first
 * takes a transaction-scoped advisory lock on the account (`pg_advisory_xact_lock(hashtext(…))`),
 * so the claims of one account queue up across instances while other accounts' go on; on SQLite
 * its first statement writes (the account's stale slots are removed), which takes the file's write
 * lock before it counts. Then it counts the account's slots and inserts one when there is room.
 */
export class MikroOrmSessionShares implements SessionShares {
  private readonly orm: BrowserdeckOrm;
  private readonly queries: KyselyQueries;

  constructor(deps: { orm: BrowserdeckOrm }) {
    this.orm = deps.orm;
    this.queries = queriesOf(deps.orm);
  }

  async claim(share: SessionShare, maxPerOwner: number): Promise<SessionShareAnswer> {
    const { queries } = this;
    const staleBefore = new Date(share.createdAt.getTime() - SESSION_SHARE_STALE_AFTER_MS);
    return withDatabaseErrors(() =>
      this.orm.em.fork().transactional(async (): Promise<SessionShareAnswer> => {
        if (queries.dialect === 'postgresql')
          await queries.run(
            sql`select pg_advisory_xact_lock(hashtext(${`session_shares/${share.ownerId}`}))`,
          );
        const { db } = queries;
        await queries.run(
          db
            .deleteFrom('session_shares')
            .where('owner_id', '=', share.ownerId)
            .where('expires_at', '<=', staleBefore),
        );
        const held = await queries.rows(
          db
            .selectFrom('session_shares')
            .select(['session_id', 'expires_at'])
            .where('owner_id', '=', share.ownerId),
        );
        if (held.some((row) => row.session_id === share.sessionId)) return { granted: true };
        if (held.length >= maxPerOwner)
          return { granted: false, expiries: held.map((row) => storedDate(row.expires_at)) };
        await queries.run(
          db.insertInto('session_shares').values({
            session_id: share.sessionId,
            owner_id: share.ownerId,
            instance_id: share.instanceId,
            created_at: share.createdAt,
            expires_at: share.expiresAt,
          }),
        );
        return { granted: true };
      }),
    );
  }

  async free(sessionId: string): Promise<void> {
    const { db } = this.queries;
    await withDatabaseErrors(() =>
      this.queries.run(db.deleteFrom('session_shares').where('session_id', '=', sessionId)),
    );
  }

  async freeInstance(instanceId: string): Promise<number> {
    const { db } = this.queries;
    return withDatabaseErrors(() =>
      this.queries.run(db.deleteFrom('session_shares').where('instance_id', '=', instanceId)),
    );
  }

  async held(ownerId: string, now: Date): Promise<number> {
    const { db } = this.queries;
    const staleBefore = new Date(now.getTime() - SESSION_SHARE_STALE_AFTER_MS);
    const [row] = await withDatabaseErrors(() =>
      this.queries.rows(
        db
          .selectFrom('session_shares')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('owner_id', '=', ownerId)
          .where('expires_at', '>', staleBefore),
      ),
    );
    // PostgreSQL answers a count as a string (bigint).
    return Number(row?.n ?? 0);
  }
}

/** A `datetime` column as the driver answers it: epoch milliseconds on SQLite, a timestamp (text) on PostgreSQL. */
function storedDate(value: unknown): Date {
  if (value instanceof Date) return value;
  return new Date(typeof value === 'number' || typeof value === 'bigint' ? Number(value) : String(value));
}
