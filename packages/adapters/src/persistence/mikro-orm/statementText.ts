import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely';
import type { DatabaseDialect } from './BrowserdeckOrm.ts';
import { type BuiltQuery, compileOn } from './KyselyQueries.ts';

/** A Kysely per dialect that compiles and never connects (Kysely's "cold" instance). */
const COLD: Record<DatabaseDialect, Kysely<unknown>> = {
  sqlite: new Kysely({
    dialect: {
      createAdapter: () => new SqliteAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new SqliteIntrospector(db),
      createQueryCompiler: () => new SqliteQueryCompiler(),
    },
  }),
  postgresql: new Kysely({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new PostgresIntrospector(db),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  }),
};

/**
 * The text and values of `build`'s query on `dialect`, for benchmarks that show a statement's plan
 * through `connection.execute`: `?` placeholders on both dialects, dates as the dialect stores them
 * (epoch milliseconds on SQLite). Built on a Kysely that never connects, so no ORM is needed; only
 * for `sql` templates and queries without entity (property) names.
 */
export function statementText(
  dialect: DatabaseDialect,
  build: (db: Kysely<unknown>) => BuiltQuery,
): { sql: string; params: unknown[] } {
  const compiled = compileOn(() => COLD[dialect], build(COLD[dialect]));
  const sql = dialect === 'postgresql' ? compiled.sql.replace(/\$\d+/g, '?') : compiled.sql;
  const params = compiled.parameters.map((value) =>
    dialect === 'sqlite' && value instanceof Date ? value.getTime() : value,
  );
  return { sql, params };
}
