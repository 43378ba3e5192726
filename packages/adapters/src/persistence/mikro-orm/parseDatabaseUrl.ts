import type { DatabaseDialect } from './BrowserdeckOrm.ts';

/** Where a `DATABASE_URL` points: a PostgreSQL server URL, or a SQLite file path (or `:memory:`). */
export type DatabaseLocation =
  | { dialect: Extract<DatabaseDialect, 'postgresql'>; url: string }
  | { dialect: Extract<DatabaseDialect, 'sqlite'>; path: string };

/**
 * Reads a database URL: `postgres://…` / `postgresql://…` select PostgreSQL; `sqlite:<path>`,
 * `file:<path>` (an optional `//` after the scheme is dropped, so `sqlite:///abs/db.sqlite` works)
 * or a plain path select a SQLite file.
 */
export function parseDatabaseUrl(databaseUrl: string): DatabaseLocation {
  const url = databaseUrl.trim();
  if (/^postgres(ql)?:\/\//i.test(url)) return { dialect: 'postgresql', url };
  const scheme = /^(sqlite3?|file):/i.exec(url);
  let path = scheme ? url.slice(scheme[0].length) : url;
  if (scheme && path.startsWith('//')) path = path.slice(2);
  if (path === '') throw new Error('The SQLite database URL names no file.');
  return { dialect: 'sqlite', path };
}
