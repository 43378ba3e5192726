import type { CompiledQuery } from 'kysely';
import type { BrowserdeckOrm } from './BrowserdeckOrm.ts';
import {
  type KyselyQueries,
  PreparedRun,
  type Query,
  queriesOf,
  type StatementBuild,
} from './KyselyQueries.ts';

/**
 * A repository's statement, written once as a function of its values: built with the query builder
 * on every call, with the values themselves (Kysely binds each one where it is used), and compiled
 * on the ORM only to run it or to show its plan. The dialect is there for the rare fragment that
 * differs (a `sql` template beside its twin).
 *
 * `prepared: true` is for the few reads behind nearly every request (ADR 0037): the statement is
 * built and compiled once per ORM, with stand-ins for its values, and each call only binds its own
 * (building and compiling cost more than SQLite answering a primary-key read). Its `build` must use
 * each value of `P` (an object) only as a bound value (`where(column, '=', params.x)`): never in
 * JavaScript (`if`, string building) and never as a list for `in`. A value used otherwise is an error
 * at the first run.
 */
export class Statement<P> {
  private readonly build: StatementBuild<P>;
  private readonly prepared: boolean;

  constructor(build: StatementBuild<P>, options: { prepared?: boolean } = {}) {
    this.build = build;
    this.prepared = options.prepared ?? false;
  }

  /** The statement with `params`, on the current context of `queries`. */
  query(queries: KyselyQueries, params: P): Query {
    if (this.prepared)
      return new PreparedRun(
        this.build as StatementBuild<never>,
        params as Readonly<Record<string, unknown>>,
      );
    return this.build(queries.db, params, queries.dialect);
  }

  /** The statement with `params`, compiled on `orm` and its values bound as stored (for plans). */
  compile(orm: BrowserdeckOrm, params: P): CompiledQuery {
    const queries = queriesOf(orm);
    return queries.compile(this.query(queries, params));
  }
}
