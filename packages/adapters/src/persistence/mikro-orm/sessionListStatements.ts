import { type MetadataFilter, matchingMetadataValues, type SessionListQuery } from '@browserdeck/domain';
import { type CompiledQuery, type Expression, type SqlBool, sql } from 'kysely';
import type { BrowserdeckOrm, DatabaseDialect } from './BrowserdeckOrm.ts';
import { type KyselyQueries, type Query, queriesOf } from './KyselyQueries.ts';

/**
 * The metadata condition, the one dialect-specific fragment (Kysely has no portable JSON path
 * operator), a `sql` template beside its twin: the value at a JSON path is one of two JSON values
 * (the second may be null). SQLite compares the stored JSON text (`->` gives it back as written,
 * and `JSON.stringify` wrote it); PostgreSQL compares `jsonb` values, the path in strict mode so
 * that a key never reaches into an array or a missing key (an error, silenced to null). Path and
 * values are bound.
 */
function metadataMatches(dialect: DatabaseDialect, filter: MetadataFilter): Expression<SqlBool> {
  const metadata = sql.ref('metadata');
  const [text, other] = matchingMetadataValues(filter.value).map((value) => JSON.stringify(value));
  const path = jsonPath(dialect, filter.path);
  return dialect === 'sqlite'
    ? sql<SqlBool>`${metadata} -> ${path} in (${text ?? null}, ${other ?? null})`
    : sql<SqlBool>`jsonb_path_query_first(${metadata}, ${path}::jsonpath, '{}', true) in (${text ?? null}::jsonb, ${other ?? null}::jsonb)`;
}

/**
 * The JSON path of `path`, every key quoted as a JSON string (`$."order"."status"`), which both
 * SQLite's path syntax and PostgreSQL's jsonpath read back to the key, whatever it holds.
 */
function jsonPath(dialect: DatabaseDialect, path: readonly string[]): string {
  const text = `$${path.map((key) => `.${JSON.stringify(key)}`).join('')}`;
  return dialect === 'postgresql' ? `strict ${text}` : text;
}

/**
 * The two queries of `SessionRepository.list`: one page, newest first, and the total. With a status
 * they are range scans of `(project_id, status, created_at, id, …)` (the total reads only that
 * index); without, of `(project_id, created_at, id)`. A metadata filter is checked on the rows those
 * scans find (no index: it narrows one project's sessions, and keys are the client's own).
 */
export function sessionListQueries(
  queries: KyselyQueries,
  projectId: string,
  query: SessionListQuery,
): { page: Query; total: Query } {
  const { status, metadata } = query;
  const filtered = queries.db
    .selectFrom('browser_sessions')
    .where('project_id', '=', projectId)
    .$if(status !== undefined, (q) => q.where('status', '=', status as string))
    .$if(metadata !== undefined, (q) =>
      q.where(metadataMatches(queries.dialect, metadata as MetadataFilter)),
    );
  return {
    page: filtered
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(query.limit)
      .offset(query.offset),
    total: filtered.select((eb) => eb.fn.countAll().as('total')),
  };
}

/** `sessionListQueries` compiled on `orm`, values bound as stored: what benchmarks show the plans of. */
export function sessionListStatements(
  orm: BrowserdeckOrm,
  projectId: string,
  query: SessionListQuery,
): { page: CompiledQuery; total: CompiledQuery } {
  const queries = queriesOf(orm);
  const { page, total } = sessionListQueries(queries, projectId, query);
  return { page: queries.compile(page), total: queries.compile(total) };
}
