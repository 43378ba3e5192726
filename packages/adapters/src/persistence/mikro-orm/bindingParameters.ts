import {
  type AnyEntity,
  type Dictionary,
  type EntityData,
  isRaw,
  type LoggingOptions,
  type QueryResult,
  raw,
  type Transaction,
} from '@mikro-orm/core';
import type { AbstractSqlConnection, NativeQueryBuilder, RawQueryFragment } from '@mikro-orm/sql';
import { CompiledQuery } from 'kysely';
import { bindQuery, type Placeholder } from './bindQuery.ts';

// biome-ignore lint/suspicious/noExplicitAny: a TypeScript mixin's base constructor must take `any[]`.
type SqlConnectionClass = abstract new (...args: any[]) => AbstractSqlConnection;

/** A logger context as MikroORM passes it, with the abort options it carries for Kysely. */
type LoggingWithAbort = LoggingOptions & { signal?: AbortSignal; inflightQueryAbortStrategy?: unknown };

/** What Kysely's `executeQuery` takes besides the query: MikroORM's abort options. */
type AbortOptions = Parameters<ReturnType<AbstractSqlConnection['getClient']>['executeQuery']>[1];

/**
 * `Base` with `execute` sending values as bound parameters. MikroORM 7's `execute` splices every
 * parameter into the SQL text (`platform.formatQuery`) and sends the text alone; this override reads
 * the statement the same way (`bindQuery`) and hands Kysely the placeholders and the values. Logging,
 * error conversion and result shapes stay MikroORM's. Typed as `Base` itself: only `execute` changes,
 * with the same signature.
 */
export function bindingParameters<C extends SqlConnectionClass>(Base: C, placeholder: Placeholder): C {
  abstract class BoundParameterConnection extends Base {
    override async execute<
      T extends QueryResult | EntityData<AnyEntity> | EntityData<AnyEntity>[] = EntityData<AnyEntity>[],
    >(
      query: string | NativeQueryBuilder | RawQueryFragment,
      params: readonly unknown[] | Dictionary<unknown> = [],
      method: 'all' | 'get' | 'run' = 'all',
      ctx?: Transaction,
      loggerContext?: LoggingOptions,
    ): Promise<T> {
      await this.ensureConnection();
      let statement: string | RawQueryFragment =
        typeof query === 'string' || isRaw(query) ? query : query.toRaw();
      let values: readonly unknown[] = Array.isArray(params) ? params : [];
      // Named parameters (a plain object) are translated by `raw()`, as MikroORM does.
      if (typeof statement === 'string' && !Array.isArray(params)) statement = raw(statement, params);
      if (isRaw(statement)) {
        values = statement.params;
        statement = statement.sql;
      }
      const sql = this.config.get('onQuery')(statement, [...values]);
      const bound = bindQuery(this.platform, sql, values, placeholder);
      // The entity manager stashes its abort options in the logger context; Kysely takes them apart.
      const context = (loggerContext ?? {}) as LoggingWithAbort;
      const { signal, inflightQueryAbortStrategy, ...logContext } = context;
      const abort =
        signal === undefined && inflightQueryAbortStrategy === undefined
          ? undefined
          : ({ signal, inflightQueryAbortStrategy } as AbortOptions);
      const logger = this.config.getLogger();
      const logged =
        logger.isEnabled('query', logContext) && logger.isEnabled('query-params', logContext)
          ? this.platform.formatQuery(sql, [...values])
          : sql;
      const client = (ctx ?? this.getClient()) as ReturnType<AbstractSqlConnection['getClient']>;
      return this.executeQuery(
        logged,
        async () => {
          const result = await client.executeQuery(CompiledQuery.raw(bound.sql, bound.parameters), abort);
          return this.transformRawResult<T>(result, method);
        },
        { query: sql, params: [...values], ...logContext },
      );
    }
  }
  return BoundParameterConnection;
}
