import { type MetadataFilter, matchingMetadataValues, type SessionListQuery } from '@browserdeck/domain';
import type { DatabaseDialect } from './BrowserdeckOrm.ts';
import type { SqlParam } from './NativeSql.ts';
import { SELECT_SESSION } from './sessionRows.ts';

/** A statement with `?` placeholders and its parameters. */
export interface SqlStatement {
  sql: string;
  params: SqlParam[];
}

/**
 * The metadata condition: the value at a JSON path (a parameter) is one of two JSON values
 * (parameters; the second may be null). SQLite compares the stored JSON text (`->` gives it back as
 * written, and `JSON.stringify` wrote it); PostgreSQL compares `jsonb` values, the path in strict
 * mode so that a key never reaches into an array or a missing key (an error, silenced to null).
 */
const METADATA_SQL: Record<DatabaseDialect, string> = {
  sqlite: 'metadata -> ? in (?, ?)',
  postgresql: `jsonb_path_query_first(metadata, ?::jsonpath, '{}', true) in (?::jsonb, ?::jsonb)`,
};

/**
 * The JSON path of `path`, every key quoted as a JSON string (`$."order"."status"`), which both
 * SQLite's path syntax and PostgreSQL's jsonpath read back to the key, whatever it holds.
 */
function jsonPath(path: readonly string[]): string {
  return `$${path.map((key) => `.${JSON.stringify(key)}`).join('')}`;
}

function metadataParams(dialect: DatabaseDialect, filter: MetadataFilter): SqlParam[] {
  const [text, other] = matchingMetadataValues(filter.value).map((value) => JSON.stringify(value));
  const path = jsonPath(filter.path);
  return [dialect === 'postgresql' ? `strict ${path}` : path, text ?? null, other ?? null];
}

/**
 * The two statements of `SessionRepository.list`: one page, newest first, and the total. With a
 * status they are range scans of `(project_id, status, created_at, id, …)` (the total reads only
 * that index); without, of `(project_id, created_at, id)`. A metadata filter is checked on the rows
 * those scans find (no index: it narrows one project's sessions, and keys are the client's own).
 * Keys and value are always parameters, never part of the SQL text.
 */
export function sessionListStatements(
  dialect: DatabaseDialect,
  projectId: string,
  query: SessionListQuery,
): { page: SqlStatement; total: SqlStatement } {
  const conditions = ['project_id = ?'];
  const params: SqlParam[] = [projectId];
  if (query.status !== undefined) {
    conditions.push('status = ?');
    params.push(query.status);
  }
  if (query.metadata !== undefined) {
    conditions.push(METADATA_SQL[dialect]);
    params.push(...metadataParams(dialect, query.metadata));
  }
  const filter = conditions.join(' and ');
  return {
    page: {
      sql: `${SELECT_SESSION} where ${filter} order by created_at desc, id desc limit ? offset ?`,
      params: [...params, query.limit, query.offset],
    },
    total: { sql: `select count(*) as total from browser_sessions where ${filter}`, params },
  };
}
