import type { EntityData, EntityMetadata, EntitySchema } from '@mikro-orm/core';
import { type Compilable, CompiledQuery, type Kysely } from 'kysely';
import { type BrowserdeckOrm, type DatabaseDialect, dialectOf } from './BrowserdeckOrm.ts';
import { type BrowserdeckDb, KYSELY_NAMING } from './kyselyDatabase.ts';
import { nativeSqlOf, type SqlParam } from './NativeSql.ts';

/** A value a prepared query binds: dates and booleans as MikroORM stores them, objects as JSON. */
export type QueryValue = string | number | boolean | Date | null | object;

/** Stands for the named parameter while the query is built; typed to fit wherever a value goes. */
export type Param<P> = (name: keyof P & string) => never;

/** What a parameter slot of the compiled statement holds: a named parameter, or a constant. */
type Slot = { param: string } | { constant: unknown };

interface Compiled {
  sql: string;
  slots: Slot[];
}

const MARK = '\u0000browserdeck-param:';

/**
 * A Kysely query built and compiled once per ORM, then run with fresh values: the statement text
 * (so the driver's compiled statement) is the same every time, and the query builder and MikroORM's
 * Kysely plugin (property → column names) cost nothing per call. The builder gets `param(name)`,
 * a placeholder that becomes a bound parameter, and the dialect (for the rare dialect-specific
 * fragment); values are bound, never spliced into the text.
 * The compiled statement runs on the driver (`NativeSql`: better-sqlite3's cached statements,
 * `pg`'s named ones). Rows come back as the driver returns them, column-named: read entities with
 * `readEntities`.
 */
export class PreparedQuery<P extends { [K in keyof P]: QueryValue }> {
  private readonly build: (
    db: Kysely<BrowserdeckDb>,
    param: Param<P>,
    dialect: DatabaseDialect,
  ) => Compilable<unknown>;
  private readonly compiled = new WeakMap<BrowserdeckOrm, Compiled>();

  constructor(
    build: (db: Kysely<BrowserdeckDb>, param: Param<P>, dialect: DatabaseDialect) => Compilable<unknown>,
  ) {
    this.build = build;
  }

  /** The statement with `params` bound, as the driver of `orm` takes it. */
  compile(orm: BrowserdeckOrm, params: P): CompiledQuery {
    const { sql, slots } = this.prepared(orm);
    const sqlite = dialectOf(orm) === 'sqlite';
    const platform = orm.em.getPlatform();
    const values = slots.map((slot) => {
      if ('constant' in slot) return slot.constant;
      const value = (params[slot.param as keyof P] as QueryValue | undefined) ?? null;
      if (value instanceof Date) return platform.processDateProperty(value);
      if (typeof value === 'boolean') return sqlite ? Number(value) : value;
      if (value !== null && typeof value === 'object') return JSON.stringify(value);
      return value;
    });
    return CompiledQuery.raw(sql, values);
  }

  /** The rows of the query, column-named. */
  rows(orm: BrowserdeckOrm, params: P): Promise<Record<string, unknown>[]> {
    const { sql, parameters } = this.compile(orm, params);
    // Straight on the driver (`NativeSql`): Kysely's executor adds a connection mutex and a few
    // promise hops per call, a third of a hot read's time; the statement text is Kysely's.
    return nativeSqlOf(orm).all(sql, parameters as SqlParam[]);
  }

  /** Runs a write; how many rows it changed. */
  run(orm: BrowserdeckOrm, params: P): Promise<number> {
    const { sql, parameters } = this.compile(orm, params);
    return nativeSqlOf(orm).run(sql, parameters as SqlParam[]);
  }

  private prepared(orm: BrowserdeckOrm): Compiled {
    let compiled = this.compiled.get(orm);
    if (!compiled) {
      const db = orm.em.getKysely<BrowserdeckDb>(KYSELY_NAMING);
      const param = ((name: string) => `${MARK}${name}`) as unknown as Param<P>;
      const query = this.build(db, param, dialectOf(orm)).compile();
      const slots = query.parameters.map(
        (value): Slot =>
          typeof value === 'string' && value.startsWith(MARK)
            ? { param: value.slice(MARK.length) }
            : { constant: value },
      );
      compiled = { sql: query.sql, slots };
      this.compiled.set(orm, compiled);
    }
    return compiled;
  }
}

const metadata = new WeakMap<BrowserdeckOrm, Map<unknown, EntityMetadata>>();

/**
 * Column-named rows as the properties of `schema`'s entity, converted the way MikroORM hydrates them
 * (dates, booleans), by MikroORM's own compiled result mapper. JSON columns are left as the driver
 * returns them (text on SQLite).
 */
export function readEntities<T extends object>(
  orm: BrowserdeckOrm,
  schema: EntitySchema<T>,
  rows: readonly Record<string, unknown>[],
): EntityData<T>[] {
  let known = metadata.get(orm);
  if (!known) {
    known = new Map();
    metadata.set(orm, known);
  }
  let meta = known.get(schema) as EntityMetadata<T> | undefined;
  if (!meta) {
    meta = orm.getMetadata().get(schema as never) as EntityMetadata<T>;
    known.set(schema, meta);
  }
  const comparator = orm.em.getComparator();
  return rows.map((row) => comparator.mapResult(meta, row as never));
}
