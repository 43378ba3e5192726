/**
 * Bulk seeding for the Scale scenario, straight on the driver MikroORM owns: PostgreSQL takes
 * 10,000-row batches through `insert … select * from unnest($1::uuid[], …)`; SQLite runs one
 * prepared statement per row inside one transaction. Both end with the statistics refresh that
 * autovacuum / `pragma optimize` would do in production (VACUUM ANALYZE, ANALYZE).
 */

import type { BrowserdeckOrm, DatabaseDialect } from '@browserdeck/adapters/mikro-orm';
import type { PostgreSqlConnection } from '@mikro-orm/postgresql';
import type { SqliteConnection } from '@mikro-orm/sqlite';
import { ownersAndProjects, type ScaleShape, type SessionSeedRow, sessionRows } from './scaleRows.ts';

/** What `seedScale` needs: the measured project exists already (created through the API). */
export interface SeedOptions {
  orm: BrowserdeckOrm;
  dialect: DatabaseDialect;
  shape: ScaleShape;
  measuredProjectId: string;
  sealedEnvs: readonly string[];
  now: number;
  log: (line: string) => void;
}

const SESSION_COLUMNS = [
  'id',
  'project_id',
  'provider',
  'provider_session_id',
  'provider_project_id',
  'status',
  'connect_url',
  'created_at',
  'updated_at',
  'started_at',
  'ended_at',
  'expires_at',
  'last_synced_at',
  'name',
  'script',
  'env',
  'region',
  'timeout_sec',
] as const;

/** One row's values in `SESSION_COLUMNS` order; times as `time` maps them. */
function values(row: SessionSeedRow, time: (ms: number | null) => unknown): unknown[] {
  return [
    row.id,
    row.projectId,
    'local',
    row.providerSessionId,
    'local',
    row.status,
    row.connectUrl,
    time(row.createdAt),
    time(row.updatedAt),
    time(row.startedAt),
    time(row.endedAt),
    time(row.expiresAt),
    time(row.lastSyncedAt),
    row.name,
    '',
    row.env,
    'local',
    row.timeoutSec,
  ];
}

interface PgPool {
  query(text: string, values?: unknown[]): Promise<unknown>;
}

interface SqliteDb {
  prepare(sql: string): { run(...params: unknown[]): unknown };
  transaction(fn: () => void): () => void;
  exec(sql: string): unknown;
}

/** Inserts the other projects (and their owners) and every session; returns the seconds it took. */
export async function seedScale(options: SeedOptions): Promise<number> {
  const { orm, dialect, shape, measuredProjectId, sealedEnvs, now, log } = options;
  const started = performance.now();
  const { users, projects } = ownersAndProjects(shape.projects - 1, now);
  const rows = sessionRows({
    shape,
    measuredProjectId,
    otherProjectIds: projects.map((p) => p.id),
    sealedEnvs,
    now,
  });
  const connection = orm.em.getConnection();
  let done = 0;
  const progress = (n: number) => {
    done += n;
    if (done % 100_000 < n) log(`    ${done.toLocaleString('en')} sessions`);
  };

  if (dialect === 'postgresql') {
    const pool = (await (
      connection as unknown as PostgreSqlConnection
    ).getNativeClient()) as unknown as PgPool;
    const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
    await pool.query(
      'insert into users (id, email, created_at) select * from unnest($1::uuid[], $2::text[], $3::timestamptz[])',
      [users.map((u) => u.id), users.map((u) => u.email), users.map((u) => iso(u.createdAt))],
    );
    await pool.query(
      `insert into projects (id, owner_id, name, slug, archived, created_at, updated_at)
       select id, owner_id, name, slug, false, created_at, created_at
       from unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::timestamptz[]) as t(id, owner_id, name, slug, created_at)`,
      [
        projects.map((p) => p.id),
        projects.map((p) => p.ownerId),
        projects.map((p) => p.name),
        projects.map((p) => p.slug),
        projects.map((p) => iso(p.createdAt)),
      ],
    );
    const types = ['uuid', 'uuid', 'text', 'text', 'text', 'text', 'text']
      .concat(Array(6).fill('timestamptz'))
      .concat(['text', 'text', 'text', 'text', 'int']);
    const sql = `insert into browser_sessions (${SESSION_COLUMNS.join(', ')})
      select * from unnest(${types.map((t, i) => `$${i + 1}::${t}[]`).join(', ')})`;
    for (const batch of rows) {
      const columns = SESSION_COLUMNS.map(() => [] as unknown[]);
      for (const row of batch) {
        const rowValues = values(row, iso);
        for (let c = 0; c < rowValues.length; c++) columns[c]!.push(rowValues[c]);
      }
      await pool.query(sql, columns);
      progress(batch.length);
    }
    log('    vacuum analyze');
    await pool.query('vacuum analyze users, projects, browser_sessions');
  } else {
    const db = (await (connection as unknown as SqliteConnection).getNativeClient()) as unknown as SqliteDb;
    const insertUser = db.prepare('insert into users (id, email, created_at) values (?, ?, ?)');
    const insertProject = db.prepare(
      'insert into projects (id, owner_id, name, slug, archived, created_at, updated_at) values (?, ?, ?, ?, 0, ?, ?)',
    );
    const insertSession = db.prepare(
      `insert into browser_sessions (${SESSION_COLUMNS.join(', ')}) values (${SESSION_COLUMNS.map(() => '?').join(', ')})`,
    );
    db.transaction(() => {
      for (const u of users) insertUser.run(u.id, u.email, u.createdAt);
      for (const p of projects) insertProject.run(p.id, p.ownerId, p.name, p.slug, p.createdAt, p.createdAt);
      for (const batch of rows) {
        for (const row of batch) insertSession.run(...values(row, (ms) => ms));
        progress(batch.length);
      }
    })();
    log('    analyze');
    db.exec('analyze');
    db.exec('pragma wal_checkpoint(truncate)');
  }
  return (performance.now() - started) / 1000;
}
