import type { AuditAction, AuditActor, AuditEntry, AuditLog, AuditPage } from '@browserdeck/domain';
import type { BrowserdeckOrm } from './BrowserdeckOrm.ts';
import { isUuid, withDatabaseErrors } from './databaseErrors.ts';
import { AuditEntrySchema } from './entities/AuditEntrySchema.ts';
import { type KyselyQueries, queriesOf } from './KyselyQueries.ts';
import { decodePageCursor, encodePageCursor } from './pageCursor.ts';

/** What `MikroOrmAuditLog` needs. */
export interface MikroOrmAuditLogDeps {
  orm: BrowserdeckOrm;
}

/**
 * `AuditLog` on MikroORM (SQLite, PostgreSQL), in `audit_entries`, through `KyselyQueries`:
 * `record` is one insert on the current context, so inside `Transactions.run` it commits or rolls
 * back with the change it records. A page is one range read of `(project_id, at, id)` below the
 * cursor's position, newest first.
 */
export class MikroOrmAuditLog implements AuditLog {
  private readonly queries: KyselyQueries;

  constructor(deps: MikroOrmAuditLogDeps) {
    this.queries = queriesOf(deps.orm);
  }

  async record(entry: AuditEntry): Promise<void> {
    const { db } = this.queries;
    const { actor, target } = entry;
    await withDatabaseErrors(() =>
      this.queries.run(
        db.insertInto('audit_entries').values({
          id: entry.id,
          project_id: entry.projectId,
          at: entry.at,
          actor_type: actor.type,
          actor_id: actor.id,
          actor_email: actor.email ?? null,
          actor_name: actor.name ?? null,
          action: entry.action,
          target_type: target.type,
          target_id: target.id,
          request_id: entry.requestId,
          ip: entry.ip,
        }),
      ),
    );
  }

  async list(projectId: string, page: { cursor?: string | undefined; limit: number }): Promise<AuditPage> {
    const before = page.cursor === undefined ? null : decodePageCursor(page.cursor);
    if (!isUuid(projectId)) return { entries: [], nextCursor: null };
    const { db } = this.queries;
    let query = db.selectFrom('audit_entries').selectAll().where('project_id', '=', projectId);
    if (before)
      query = query.where((eb) =>
        eb.or([eb('at', '<', before.at), eb.and([eb('at', '=', before.at), eb('id', '<', before.id)])]),
      );
    // One row past the page tells whether another page follows.
    const rows = await withDatabaseErrors(() =>
      this.queries.entities(
        AuditEntrySchema,
        query
          .orderBy('at', 'desc')
          .orderBy('id', 'desc')
          .limit(page.limit + 1),
      ),
    );
    const entries = rows.slice(0, page.limit).map(entryOf);
    const last = entries.at(-1);
    return {
      entries,
      nextCursor:
        last && rows.length > entries.length ? encodePageCursor({ at: last.at, id: last.id }) : null,
    };
  }

  async deleteBefore(cutoff: Date): Promise<number> {
    const { db } = this.queries;
    return withDatabaseErrors(() =>
      this.queries.run(db.deleteFrom('audit_entries').where('at', '<', cutoff)),
    );
  }
}

/** An `audit_entries` row (read through `AuditEntrySchema`) as the domain's entry; absent actor fields left out. */
function entryOf(row: Record<string, unknown>): AuditEntry {
  const actor: AuditActor = {
    type: row.actorType as AuditActor['type'],
    id: (row.actorId as string | null) ?? null,
    ...(row.actorEmail == null ? {} : { email: row.actorEmail as string }),
    ...(row.actorName == null ? {} : { name: row.actorName as string }),
  };
  return {
    id: row.id as string,
    projectId: (row.projectId as string | null) ?? null,
    at: row.at as Date,
    actor,
    action: row.action as AuditAction,
    target: { type: row.targetType as string, id: row.targetId as string },
    requestId: (row.requestId as string | null) ?? null,
    ip: (row.ip as string | null) ?? null,
  };
}
