import { ACTIVE_SESSION_STATUSES } from '@browserdeck/domain';
import type { ExpressionBuilder, Updateable } from 'kysely';
import type { BrowserdeckDb } from './kyselyDatabase.ts';
import { Statement } from './Statement.ts';

/*
 * The statements of `MikroOrmSessionRepository` that read or write one session's row, list the
 * active ones, or add to many in place; the list is `sessionListStatements`, the claim
 * `sessionClaimSql`.
 */

/** The active statuses, or the status being written: the rows a writer may still change. */
function stillChangeable(status: string) {
  return (eb: ExpressionBuilder<BrowserdeckDb, 'browser_sessions'>) =>
    eb.or([eb('status', 'in', [...ACTIVE_SESSION_STATUSES]), eb('status', '=', status)]);
}

/** The columns `update` writes as they are: all but the key, creation, metadata, proxies, uploads, bytes. */
export type SessionChanges = Omit<
  Updateable<BrowserdeckDb['browser_sessions']>,
  'id' | 'project_id' | 'created_at' | 'metadata' | 'proxies' | 'upload_count' | 'proxy_bytes'
>;

/**
 * Writes the session back, which ends any sync claim on it (`sync_lease_until: null` in `changes`).
 * A stored terminal status is final: a writer holding an older, still-active copy (a sync racing a
 * release) must not move it back, so the row changes only while it is active or already has the
 * new status. Proxy bytes are raised, never lowered: `addProxyBytes` may have added to them since.
 */
export const UPDATE_SESSION = new Statement<{
  id: string;
  projectId: string;
  status: string;
  proxyBytes: number;
  changes: SessionChanges;
}>((db, { id, projectId, status, proxyBytes, changes }) =>
  db
    .updateTable('browser_sessions')
    .set((eb) => ({
      ...changes,
      proxy_bytes: eb
        .case()
        .when('proxy_bytes', '<', proxyBytes)
        .then(proxyBytes)
        .else(eb.ref('proxy_bytes'))
        .end(),
    }))
    .where('id', '=', id)
    .where('project_id', '=', projectId)
    .where(stillChangeable(status)),
);

/** Only the status, its end and the update time, with `update`'s final-status rule; ends the claim. */
export const UPDATE_STATUS = new Statement<{
  id: string;
  projectId: string;
  status: string;
  endedAt: Date | null;
  updatedAt: Date;
}>((db, { id, projectId, status, endedAt, updatedAt }) =>
  db
    .updateTable('browser_sessions')
    .set({ status, ended_at: endedAt, updated_at: updatedAt, sync_lease_until: null })
    .where('id', '=', id)
    .where('project_id', '=', projectId)
    .where(stillChangeable(status)),
);

/** Holds the sync claim on an active session until `until`, writing nothing else. */
export const POSTPONE_SYNC = new Statement<{ id: string; projectId: string; until: Date }>(
  (db, { id, projectId, until }) =>
    db
      .updateTable('browser_sessions')
      .set({ sync_lease_until: until })
      .where('id', '=', id)
      .where('project_id', '=', projectId)
      .where('status', 'in', [...ACTIVE_SESSION_STATUSES]),
);

/** Ends any sync claim on the session, writing nothing else. */
export const END_CLAIM = new Statement<{ id: string; projectId: string }>((db, { id, projectId }) =>
  db
    .updateTable('browser_sessions')
    .set({ sync_lease_until: null })
    .where('id', '=', id)
    .where('project_id', '=', projectId),
);

/**
 * Adds each provider session's bytes to its row in place (never read and written back), in one
 * statement, so the increments are stored all together or not at all; answers the rows it found.
 */
export const ADD_PROXY_BYTES = new Statement<ReadonlyArray<readonly [string, number]>>((db, entries) =>
  db
    .updateTable('browser_sessions')
    .set((eb) => {
      const [first, ...others] = entries as Array<readonly [string, number]>;
      const bytes = (value: number) => eb.cast<number>(eb.val(value), 'bigint');
      let added = eb.case('provider_session_id').when(first![0]).then(bytes(first![1]));
      for (const [providerSessionId, value] of others)
        added = added.when(providerSessionId).then(bytes(value));
      return { proxy_bytes: eb('proxy_bytes', '+', added.else(0).end()) };
    })
    .where(
      'provider_session_id',
      'in',
      entries.map(([providerSessionId]) => providerSessionId),
    )
    .returning('provider_session_id'),
);

/**
 * One more upload of the session, while it has fewer than `max`: a conditional increment in place,
 * so concurrent uploads (and instances) never count past it together.
 */
export const COUNT_UPLOAD = new Statement<{ id: string; projectId: string; max: number }>(
  (db, { id, projectId, max }) =>
    db
      .updateTable('browser_sessions')
      .set((eb) => ({ upload_count: eb('upload_count', '+', 1) }))
      .where('id', '=', id)
      .where('project_id', '=', projectId)
      .where('upload_count', '<', max),
);

/** One upload fewer (it failed), never below zero. */
export const UNCOUNT_UPLOAD = new Statement<{ id: string; projectId: string }>((db, { id, projectId }) =>
  db
    .updateTable('browser_sessions')
    .set((eb) => ({ upload_count: eb('upload_count', '-', 1) }))
    .where('id', '=', id)
    .where('project_id', '=', projectId)
    .where('upload_count', '>', 0),
);

export const SESSION_IN_PROJECT = new Statement<{ id: string; projectId: string }>((db, { id, projectId }) =>
  db.selectFrom('browser_sessions').selectAll().where('id', '=', id).where('project_id', '=', projectId),
);

/** A project's active sessions, oldest first. */
export const ACTIVE_IN_PROJECT = new Statement<{ projectId: string }>((db, { projectId }) =>
  db
    .selectFrom('browser_sessions')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('status', 'in', [...ACTIVE_SESSION_STATUSES])
    .orderBy('created_at', 'asc')
    .orderBy('id', 'asc'),
);

/** The active sessions an instance holds, oldest first, at most `limit`. */
export const ACTIVE_HELD_BY = new Statement<{ instanceId: string; limit: number }>(
  (db, { instanceId, limit }) =>
    db
      .selectFrom('browser_sessions')
      .selectAll()
      .where('provider_instance_id', '=', instanceId)
      .where('status', 'in', [...ACTIVE_SESSION_STATUSES])
      .orderBy('created_at', 'asc')
      .orderBy('id', 'asc')
      .limit(limit),
);
