import { BROWSER_SESSION_PROPERTIES, type StoredBrowserSession } from './entities/BrowserSessionSchema.ts';
import { PreparedQuery } from './PreparedQuery.ts';

/*
 * The prepared statements of `MikroOrmSessionRepository` that read or write one session's row
 * (docs/adr/0018); the list statements are `sessionListStatements`.
 */

/** A new session's row, every column bound. */
export const INSERT_SESSION = new PreparedQuery<StoredBrowserSession>((db, param) =>
  db
    .insertInto('browser_sessions')
    .values(Object.fromEntries(BROWSER_SESSION_PROPERTIES.map((key) => [key, param(key)])) as never),
);

export const SESSION_IN_PROJECT = new PreparedQuery<{ id: string; projectId: string }>((db, param) =>
  db
    .selectFrom('browser_sessions')
    .selectAll()
    .where('id', '=', param('id'))
    .where('projectId', '=', param('projectId')),
);

/**
 * One more upload of the session, while it has fewer than `max`: a conditional increment in place,
 * so concurrent uploads (and instances) never count past it together.
 */
export const COUNT_UPLOAD = new PreparedQuery<{ id: string; projectId: string; max: number }>((db, param) =>
  db
    .updateTable('browser_sessions')
    .set((eb) => ({ uploadCount: eb('uploadCount', '+', 1) }))
    .where('id', '=', param('id'))
    .where('projectId', '=', param('projectId'))
    .where('uploadCount', '<', param('max')),
);

/** One upload fewer (it failed), never below zero. */
export const UNCOUNT_UPLOAD = new PreparedQuery<{ id: string; projectId: string }>((db, param) =>
  db
    .updateTable('browser_sessions')
    .set((eb) => ({ uploadCount: eb('uploadCount', '-', 1) }))
    .where('id', '=', param('id'))
    .where('projectId', '=', param('projectId'))
    .where('uploadCount', '>', 0),
);
