import { createHash } from 'node:crypto';
import type { PostgreSqlConnection } from '@mikro-orm/postgresql';
import type { SqliteConnection } from '@mikro-orm/sqlite';
import { type BrowserdeckOrm, type DatabaseDialect, dialectOf } from './BrowserdeckOrm.ts';
import type { PreparingDatabase } from './cacheSqliteStatements.ts';
import { sqlTime } from './sqlTime.ts';

/** A parameter of a hand-written statement. */
export type SqlParam = string | number | boolean | Date | null;

/** The better-sqlite3 statement surface used here. */
interface SqliteStatement {
  readonly busy: boolean;
  all(...params: unknown[]): unknown[];
  run(...params: unknown[]): { changes: number };
}

/** The better-sqlite3 database surface used here (`prepare` keeps compiled statements). */
interface SqliteDatabase extends PreparingDatabase<SqliteStatement> {
  readonly open: boolean;
}

/** The `pg` pool surface used here. */
interface PgPool {
  query(config: {
    name: string;
    text: string;
    values: unknown[];
  }): Promise<{ rows: unknown[]; rowCount: number | null }>;
}

/**
 * Hand-written, parameterised statements straight on the driver MikroORM owns: better-sqlite3 with
 * compiled statements kept for reuse, or `pg` with named prepared statements per pooled connection.
 * What is left here is what neither MikroORM nor a typed Kysely query expresses well (docs/adr/0018):
 * conditional upserts (revocation records, issued refresh tokens, rate-limit windows), the bounded
 * prune of expired rows, and the stats series aggregate, whose SQL differs per dialect. The hot
 * reads are prepared Kysely queries (`PreparedQuery`); everything else stays on MikroORM. Statements use `?` placeholders; booleans and dates are bound the way MikroORM
 * stores them (0/1, and dates as `sqlTime` gives them). Rows come back as the driver returns them:
 * read them with `sqlBoolean` and `sqlDate`.
 */
export class NativeSql {
  readonly dialect: DatabaseDialect;
  private readonly orm: BrowserdeckOrm;
  private readonly postgres = new Map<string, { name: string; text: string }>();
  private sqlite: SqliteDatabase | undefined;

  constructor(orm: BrowserdeckOrm) {
    this.orm = orm;
    this.dialect = dialectOf(orm);
  }

  /** The rows of `sql`. */
  async all<R>(sql: string, params: readonly SqlParam[]): Promise<R[]> {
    if (this.dialect === 'sqlite') {
      const open = this.openSqlite();
      const statement = open ? open.prepare(sql) : await this.sqliteStatement(sql);
      return statement.all(...params.map(toSqliteParam)) as R[];
    }
    return (await this.postgresQuery(sql, params)).rows as R[];
  }

  /** Runs the write `sql`; how many rows it changed. */
  async run(sql: string, params: readonly SqlParam[]): Promise<number> {
    if (this.dialect === 'sqlite') {
      const open = this.openSqlite();
      const statement = open ? open.prepare(sql) : await this.sqliteStatement(sql);
      return statement.run(...params.map(toSqliteParam)).changes;
    }
    return (await this.postgresQuery(sql, params)).rowCount ?? 0;
  }

  /** The first row of `sql`, or null. */
  async one<R>(sql: string, params: readonly SqlParam[]): Promise<R | null> {
    return (await this.all<R>(sql, params))[0] ?? null;
  }

  private async sqliteStatement(sql: string): Promise<SqliteStatement> {
    // `createMikroOrm` made the database keep compiled statements (`cacheSqliteStatements`).
    const db = (await (
      this.orm.em.getConnection() as unknown as SqliteConnection
    ).getNativeClient()) as SqliteDatabase;
    this.sqlite = db;
    return db.prepare(sql);
  }

  /**
   * The database the last statement ran on, while it is still open: MikroORM's `getNativeClient`
   * checks the connection and costs a few promise hops, on every read of every request (issue 24).
   * A closed one (the ORM closed or reconnected) is asked for again.
   */
  private openSqlite(): SqliteDatabase | undefined {
    const db = this.sqlite;
    return db?.open ? db : undefined;
  }

  private async postgresQuery(sql: string, params: readonly SqlParam[]) {
    const pool = (await (
      this.orm.em.getConnection() as unknown as PostgreSqlConnection
    ).getNativeClient()) as unknown as PgPool;
    return pool.query({ ...this.postgresStatement(sql), values: [...params] });
  }

  /** `?` placeholders as `$1…$n`, and a statement name derived from the text. */
  private postgresStatement(sql: string): { name: string; text: string } {
    let statement = this.postgres.get(sql);
    if (!statement) {
      let n = 0;
      statement = {
        name: `bd_${createHash('sha256').update(sql).digest('base64url').slice(0, 20)}`,
        text: sql.replace(/\?/g, () => `$${++n}`),
      };
      this.postgres.set(sql, statement);
    }
    return statement;
  }
}

const instances = new WeakMap<BrowserdeckOrm, NativeSql>();

/** The one `NativeSql` of `orm` (its statement caches are shared by every repository). */
export function nativeSqlOf(orm: BrowserdeckOrm): NativeSql {
  let sql = instances.get(orm);
  if (!sql) {
    sql = new NativeSql(orm);
    instances.set(orm, sql);
  }
  return sql;
}

function toSqliteParam(value: SqlParam): string | number | null {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof Date) return sqlTime('sqlite', value) as number;
  return value;
}

/** A boolean column as either driver returns it. */
export function sqlBoolean(value: unknown): boolean {
  return value === true || value === 1;
}

/**
 * A `datetime` column as either driver returns it: epoch milliseconds on SQLite; on PostgreSQL the
 * `timestamptz` text (`2026-03-04 05:06:07.089+00`) — MikroORM's pool keeps dates as text.
 */
export function sqlDate(value: unknown): Date {
  const date = value instanceof Date ? value : new Date(typeof value === 'string' ? value : Number(value));
  if (Number.isNaN(date.getTime())) throw new Error(`Not a stored date: ${String(value)}`);
  return date;
}
