import type { CompiledQuery, Kysely } from 'kysely';
import type { BrowserdeckOrm, DatabaseDialect } from './BrowserdeckOrm.ts';
import { type KyselyQueries, type Query, queriesOf } from './KyselyQueries.ts';
import type { BrowserdeckDb } from './kyselyDatabase.ts';

/**
 * A repository's statement, written once as a function of its values: built with the query builder
 * on every call, with the values themselves (Kysely binds each one where it is used), and compiled
 * on the ORM only to run it or to show its plan. The dialect is there for the rare fragment that
 * differs (a `sql` template beside its twin).
 */
export class Statement<P> {
  private readonly build: (db: Kysely<BrowserdeckDb>, params: P, dialect: DatabaseDialect) => Query;

  constructor(build: (db: Kysely<BrowserdeckDb>, params: P, dialect: DatabaseDialect) => Query) {
    this.build = build;
  }

  /** The statement with `params`, on the current context of `queries`. */
  query(queries: KyselyQueries, params: P): Query {
    return this.build(queries.db, params, queries.dialect);
  }

  /** The statement with `params`, compiled on `orm` and its values bound as stored (for plans). */
  compile(orm: BrowserdeckOrm, params: P): CompiledQuery {
    const queries = queriesOf(orm);
    return queries.compile(this.query(queries, params));
  }
}
