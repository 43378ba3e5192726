import type { EntityData, EntityMetadata, EntitySchema, Platform } from '@mikro-orm/core';
import type { Compilable, CompiledQuery, Kysely, QueryResult, RawBuilder } from 'kysely';
import { type BrowserdeckOrm, type DatabaseDialect, dialectOf } from './BrowserdeckOrm.ts';
import type { BrowserdeckDb } from './kyselyDatabase.ts';

/** A query as Kysely builds it: a query builder, or a `sql` template. */
export type BuiltQuery = Compilable<unknown> | RawBuilder<unknown>;

/** A query `KyselyQueries` runs: a built one, or a prepared statement's run. */
export type Query = BuiltQuery | PreparedRun;

/** How a statement is built from its values (`Statement`). */
export type StatementBuild<P> = (
  db: Kysely<BrowserdeckDb>,
  params: P,
  dialect: DatabaseDialect,
) => BuiltQuery;

/**
 * One run of a prepared statement (`Statement` with `prepared: true`): its build, compiled once per
 * ORM with stand-ins where the values go, and this run's values.
 */
export class PreparedRun {
  readonly build: StatementBuild<never>;
  readonly values: Readonly<Record<string, unknown>>;

  constructor(build: StatementBuild<never>, values: Readonly<Record<string, unknown>>) {
    this.build = build;
    this.values = values;
  }
}

/** Stands for one named value of a prepared statement while its SQL is compiled. */
class Placeholder {
  readonly name: string;

  constructor(name: string) {
    this.name = name;
  }
}

/** `query` compiled by `db()` (a `sql` template needs the instance; a builder knows its own). */
export function compileOn(db: () => Kysely<unknown>, query: BuiltQuery): CompiledQuery {
  return 'isRawBuilder' in query ? query.compile(db()) : query.compile();
}

/**
 * Browserdeck's one query path: Kysely queries through MikroORM's Kysely integration.
 *
 * `db` is `em.getKysely()` of the ORM's current context: inside `em.transactional(…)` (or a fork
 * that began one) it is that transaction, otherwise the connection pool. Queries name tables and
 * columns as the database does, typed from the entity schemas (`BrowserdeckDb`); MikroORM's Kysely
 * plugin is not installed: its per-query tree walk was 44 % of a primary-key read, and its result
 * step rebuilds a field map and copies every row (docs/adr/0030). Rows come back as the driver
 * answers them, and `entities` reads them into properties with MikroORM's compiled result mapper.
 *
 * Kysely sends every value as a bound parameter, never as SQL text; `compile` binds each the way
 * MikroORM stores it: a `Date` through the platform (epoch milliseconds on SQLite), a boolean as
 * 0/1 on SQLite (better-sqlite3 binds none), a plain object or array as its JSON text, bytes as
 * they are. Driver errors become MikroORM's exceptions (`UniqueConstraintViolationException`, …),
 * as from the entity manager. With the ORM's `debug` on, each statement is logged through its logger.
 */
export class KyselyQueries {
  readonly dialect: DatabaseDialect;
  private readonly orm: BrowserdeckOrm;
  private readonly platform: Platform;
  private readonly metadata = new Map<unknown, EntityMetadata>();
  private readonly prepared = new Map<StatementBuild<never>, CompiledQuery>();

  constructor(orm: BrowserdeckOrm) {
    this.orm = orm;
    this.dialect = dialectOf(orm);
    this.platform = orm.em.getPlatform();
  }

  /** The query builder on the current context: its transaction, if any, else the pool. */
  get db(): Kysely<BrowserdeckDb> {
    return this.orm.em.getKysely<BrowserdeckDb>();
  }

  /** `query` compiled for the ORM's dialect, its values bound as stored. */
  compile(query: Query): CompiledQuery {
    if (query instanceof PreparedRun) {
      const compiled = this.compiledOnce(query.build);
      const { values } = query;
      const parameters = compiled.parameters.map((value) =>
        this.bind(value instanceof Placeholder ? values[value.name] : value),
      );
      return { ...compiled, parameters };
    }
    const compiled = compileOn(() => this.db as Kysely<unknown>, query);
    return { ...compiled, parameters: compiled.parameters.map(this.bind) };
  }

  /** The rows of `query` as the driver answers them: column- or alias-named, values unconverted. */
  async rows(query: Query): Promise<Record<string, unknown>[]> {
    return (await this.execute(query)).rows;
  }

  /**
   * `data` (entity properties) under the columns `schema` maps them to: what an insert or update of
   * a whole row writes, named by the schema, the one place each column is named.
   */
  columns<T extends object>(
    schema: EntitySchema<T>,
    data: { [K in keyof T]?: unknown },
  ): Record<string, unknown> {
    const { properties } = this.metaOf(schema);
    const row: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(data)) {
      const column = properties[key as keyof typeof properties]?.fieldNames?.[0];
      if (!column) throw new Error(`${schema.meta.className} has no column for ${key}`);
      row[column] = value;
    }
    return row;
  }

  /**
   * The rows of `query` as `schema`'s properties, dates and booleans converted the way MikroORM
   * hydrates them (its compiled result mapper); JSON and bigint columns as the driver answers them.
   */
  async entities<T extends object>(schema: EntitySchema<T>, query: Query): Promise<EntityData<T>[]> {
    const rows = (await this.execute(query)).rows;
    if (rows.length === 0) return [];
    const meta = this.metaOf(schema);
    const comparator = this.orm.em.getComparator();
    return rows.map((row) => comparator.mapResult(meta, row as EntityData<T>) as EntityData<T>);
  }

  /** Runs a write; how many rows it changed (or returned, for `… returning`). */
  async run(query: Query): Promise<number> {
    const result = await this.execute(query);
    return Number(result.numAffectedRows ?? result.rows.length);
  }

  private async execute(query: Query): Promise<QueryResult<Record<string, unknown>>> {
    const compiled = this.compile(query);
    const logger = this.orm.config.getLogger();
    const started = logger.isEnabled('query') ? Date.now() : undefined;
    try {
      const result = await this.orm.em.getKysely().executeQuery<Record<string, unknown>>(compiled);
      if (started !== undefined) {
        const took = Date.now() - started;
        logger.logQuery({
          query: compiled.sql,
          params: compiled.parameters,
          took,
          results: result.rows.length,
        });
      }
      return result;
    } catch (error) {
      throw this.orm.em.getDriver().convertException(error as Error);
    }
  }

  /** `build`'s SQL, compiled on its first run with stand-ins where its values go. */
  private compiledOnce(build: StatementBuild<never>): CompiledQuery {
    const known = this.prepared.get(build);
    if (known) return known;
    const read = new Set<string>();
    const params = new Proxy({} as never, {
      get: (_target, name) => {
        read.add(String(name));
        return new Placeholder(String(name));
      },
    });
    const compiled = compileOn(() => this.db as Kysely<unknown>, build(this.db, params, this.dialect));
    const bound = new Set(
      compiled.parameters.filter((value) => value instanceof Placeholder).map((value) => value.name),
    );
    const unbound = [...read].filter((name) => !bound.has(name));
    if (unbound.length > 0)
      throw new Error(`A prepared statement used ${unbound.join(', ')} other than as a bound value.`);
    this.prepared.set(build, compiled);
    return compiled;
  }

  private readonly bind = (value: unknown): unknown => {
    if (value instanceof Date) return this.platform.processDateProperty(value);
    if (typeof value === 'boolean') return this.dialect === 'sqlite' ? Number(value) : value;
    if (value !== null && typeof value === 'object' && !ArrayBuffer.isView(value))
      return JSON.stringify(value);
    return value;
  };

  private metaOf<T extends object>(schema: EntitySchema<T>): EntityMetadata<T> {
    let meta = this.metadata.get(schema) as EntityMetadata<T> | undefined;
    if (!meta) {
      meta = this.orm.getMetadata().get(schema as never) as EntityMetadata<T>;
      this.metadata.set(schema, meta);
    }
    return meta;
  }
}

const instances = new WeakMap<BrowserdeckOrm, KyselyQueries>();

/** The one `KyselyQueries` of `orm`, shared by every repository on it. */
export function queriesOf(orm: BrowserdeckOrm): KyselyQueries {
  let queries = instances.get(orm);
  if (!queries) {
    queries = new KyselyQueries(orm);
    instances.set(orm, queries);
  }
  return queries;
}
