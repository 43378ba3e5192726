/** The part of a better-sqlite3 `Database` the cache wraps. */
export interface PreparingDatabase<S extends { readonly busy: boolean }> {
  prepare(sql: string): S;
}

/** How many distinct SQL texts keep a compiled statement (the repositories' are few and fixed). */
export const SQLITE_STATEMENT_CACHE_SIZE = 500;

/**
 * Makes `db.prepare` hand back an already compiled statement for SQL text it has seen, instead of
 * compiling it again on every query (Kysely's SQLite driver prepares each one it runs). Safe because callers run a statement to
 * completion synchronously (`all` / `run`); a statement still busy in an iterator is not shared —
 * that caller gets a fresh one. Bounded: the oldest text leaves first. SQLite recompiles a cached
 * statement by itself when the schema changes.
 */
export function cacheSqliteStatements<S extends { readonly busy: boolean }>(
  db: PreparingDatabase<S>,
  maxEntries = SQLITE_STATEMENT_CACHE_SIZE,
): void {
  const prepare = db.prepare.bind(db);
  const statements = new Map<string, S>();
  db.prepare = (sql: string): S => {
    const cached = statements.get(sql);
    if (cached && !cached.busy) return cached;
    const statement = prepare(sql);
    if (!cached) {
      statements.set(sql, statement);
      if (statements.size > maxEntries) statements.delete(statements.keys().next().value as string);
    }
    return statement;
  };
}
