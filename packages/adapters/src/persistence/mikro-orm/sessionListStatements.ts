import { type MetadataFilter, matchingMetadataValues, type SessionListQuery } from '@browserdeck/domain';
import { type CompiledQuery, type Expression, type Kysely, type SqlBool, sql } from 'kysely';
import { type BrowserdeckOrm, type DatabaseDialect, dialectOf } from './BrowserdeckOrm.ts';
import type { BrowserdeckDb } from './kyselyDatabase.ts';
import { type Param, PreparedQuery } from './PreparedQuery.ts';

/** The parameters of the list statements. */
interface ListParams {
  projectId: string;
  status: string | null;
  /** The metadata filter's JSON path, and the one or two JSON values it matches. */
  path: string | null;
  text: string | null;
  other: string | null;
  limit: number;
  offset: number;
}

/**
 * The metadata condition, the one dialect-specific fragment (Kysely has no portable JSON path
 * operator): the value at a JSON path is one of two JSON values (the second may be null). SQLite
 * compares the stored JSON text (`->` gives it back as written, and `JSON.stringify` wrote it);
 * PostgreSQL compares `jsonb` values, the path in strict mode so that a key never reaches into an
 * array or a missing key (an error, silenced to null). Path and values are always parameters.
 */
function metadataMatches(dialect: DatabaseDialect, param: Param<ListParams>): Expression<SqlBool> {
  const metadata = sql.ref('metadata');
  return dialect === 'sqlite'
    ? sql<SqlBool>`${metadata} -> ${param('path')} in (${param('text')}, ${param('other')})`
    : sql<SqlBool>`jsonb_path_query_first(${metadata}, ${param('path')}::jsonpath, '{}', true) in (${param('text')}::jsonb, ${param('other')}::jsonb)`;
}

/** The page and total statements of one shape of list (with or without status and metadata). */
function listShape(byStatus: boolean, byMetadata: boolean) {
  const filtered = (db: Kysely<BrowserdeckDb>, param: Param<ListParams>, dialect: DatabaseDialect) => {
    let from = db.selectFrom('browser_sessions').where('projectId', '=', param('projectId'));
    if (byStatus) from = from.where('status', '=', param('status'));
    if (byMetadata) from = from.where(metadataMatches(dialect, param));
    return from;
  };
  return {
    page: new PreparedQuery<ListParams>((db, param, dialect) =>
      filtered(db, param, dialect)
        .selectAll()
        .orderBy('createdAt', 'desc')
        .orderBy('id', 'desc')
        .limit(param('limit'))
        .offset(param('offset')),
    ),
    total: new PreparedQuery<ListParams>((db, param, dialect) =>
      filtered(db, param, dialect).select((eb) => eb.fn.countAll().as('total')),
    ),
  };
}

const SHAPES = [false, true].map((byStatus) =>
  [false, true].map((byMetadata) => listShape(byStatus, byMetadata)),
);

/**
 * The JSON path of `path`, every key quoted as a JSON string (`$."order"."status"`), which both
 * SQLite's path syntax and PostgreSQL's jsonpath read back to the key, whatever it holds.
 */
function jsonPath(dialect: DatabaseDialect, path: readonly string[]): string {
  const text = `$${path.map((key) => `.${JSON.stringify(key)}`).join('')}`;
  return dialect === 'postgresql' ? `strict ${text}` : text;
}

function metadataParams(dialect: DatabaseDialect, filter: MetadataFilter | undefined) {
  if (!filter) return { path: null, text: null, other: null };
  const [text, other] = matchingMetadataValues(filter.value).map((value) => JSON.stringify(value));
  return { path: jsonPath(dialect, filter.path), text: text ?? null, other: other ?? null };
}

/**
 * The two statements of `SessionRepository.list`: one page, newest first, and the total. With a
 * status they are range scans of `(project_id, status, created_at, id, …)` (the total reads only
 * that index); without, of `(project_id, created_at, id)`. A metadata filter is checked on the rows
 * those scans find (no index: it narrows one project's sessions, and keys are the client's own).
 * Prepared Kysely queries, one pair per shape; exposed so that benchmarks can show their plans.
 */
export function sessionListStatements(
  orm: BrowserdeckOrm,
  projectId: string,
  query: SessionListQuery,
): { page: CompiledQuery; total: CompiledQuery } {
  const dialect = dialectOf(orm);
  const shape = SHAPES[query.status === undefined ? 0 : 1]![query.metadata === undefined ? 0 : 1]!;
  const params: ListParams = {
    projectId,
    status: query.status ?? null,
    ...metadataParams(dialect, query.metadata),
    limit: query.limit,
    offset: query.offset,
  };
  return { page: shape.page.compile(orm, params), total: shape.total.compile(orm, params) };
}
