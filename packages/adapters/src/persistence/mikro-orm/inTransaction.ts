import type { BrowserdeckOrm } from './BrowserdeckOrm.ts';

/**
 * Runs `work` in a database transaction, joining the one the current context is in: every
 * `KyselyQueries` statement inside runs on it (`db` is the context's `getKysely()`). Called through
 * the ORM's own `em`, which resolves the context, never through a fresh `fork()` (a fork knows no
 * transaction: it would begin a second one, on SQLite's one connection a deadlock). Inside another
 * transaction MikroORM's default propagation (`NESTED`) makes it a savepoint: a failing statement
 * undoes this work only, so the outer transaction stays usable (PostgreSQL aborts a whole
 * transaction on an error outside a savepoint), and nothing commits before the outer one does.
 */
export function inTransaction<T>(orm: BrowserdeckOrm, work: () => Promise<T>): Promise<T> {
  return orm.em.transactional(() => work());
}
