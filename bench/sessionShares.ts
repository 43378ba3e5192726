/**
 * Session shares benchmark: what counting an account's local sessions across instances costs a
 * create. `MikroOrmSessionShares` on SQLite (a file) and on PostgreSQL (a throwaway server, or
 * `DATABASE_URL`), against the in-memory ledger a provider without a database uses: N claim + free
 * round trips one after another (a create claims its slot once this instance's own count let it
 * through, and frees it when the session ends), then on PostgreSQL N rounds of two claims at the
 * same instant for one account (a share of 1) from two ORMs, as two instances would. Prints a
 * markdown section (section 16 of docs/benchmarks.md). All traffic is on 127.0.0.1.
 *
 *   npm exec -- node --conditions=source bench/sessionShares.ts [round trips]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InMemorySessionShares, type SessionShares } from '@browserdeck/adapters/local-chromium';
import {
  type BrowserdeckOrm,
  createMikroOrm,
  MikroOrmSessionShares,
  migrateToLatest,
} from '@browserdeck/adapters/mikro-orm';
import { createDatabase, dropDatabase, startPostgresServer } from '../test/postgresServer.ts';
import { fmt, median, percentile, table } from './stats.ts';

const N = Number(process.argv[2] ?? 500);
const WARM_UP = 20;
const OWNER = '0b5e6f4c-3d2a-4e1b-9c8d-7a6b5c4d3e2f';

interface Timings {
  claim: number[];
  free: number[];
  total: number[];
}

/** N claim + free round trips of one account with a share of 4 (holding 1 other slot meanwhile). */
async function roundTrips(shares: SessionShares, label: string): Promise<Timings> {
  const timings: Timings = { claim: [], free: [], total: [] };
  const now = () => new Date();
  await shares.claim(
    { sessionId: `${label}-held`, ownerId: OWNER, instanceId: 'bench', createdAt: now(), expiresAt: later() },
    4,
  );
  for (let i = -WARM_UP; i < N; i++) {
    const sessionId = `${label}-${i}`;
    const started = performance.now();
    const answer = await shares.claim(
      { sessionId, ownerId: OWNER, instanceId: 'bench', createdAt: now(), expiresAt: later() },
      4,
    );
    const claimed = performance.now();
    if (!answer.granted) throw new Error(`${label}: claim ${i} refused`);
    await shares.free(sessionId);
    const freed = performance.now();
    if (i < 0) continue;
    timings.claim.push(claimed - started);
    timings.free.push(freed - claimed);
    timings.total.push(freed - started);
  }
  await shares.free(`${label}-held`);
  return timings;
}

/** N rounds of two claims at once for one account with a share of 1, through two ORMs; each claim's time. */
async function contended(a: SessionShares, b: SessionShares): Promise<number[]> {
  const times: number[] = [];
  for (let i = -WARM_UP; i < N; i++) {
    const ownerId = `contended-${i}`;
    const claim = async (shares: SessionShares, side: string) => {
      const started = performance.now();
      const answer = await shares.claim(
        { sessionId: `${side}-${i}`, ownerId, instanceId: side, createdAt: new Date(), expiresAt: later() },
        1,
      );
      return { ms: performance.now() - started, granted: answer.granted };
    };
    const both = await Promise.all([claim(a, 'a'), claim(b, 'b')]);
    if (both.filter((x) => x.granted).length !== 1) throw new Error(`contended round ${i}: not one winner`);
    if (i >= 0) times.push(...both.map((x) => x.ms));
    await Promise.all([a.free(`a-${i}`), b.free(`b-${i}`)]);
  }
  return times;
}

function later(): Date {
  return new Date(Date.now() + 300_000);
}

const row = (name: string, values: number[]) => [
  name,
  String(values.length),
  fmt(median(values), 2),
  fmt(percentile(values, 95), 2),
];

const rows: string[][] = [];
const memory = await roundTrips(new InMemorySessionShares(), 'memory');
rows.push(row('in memory: claim + free', memory.total));

const sqliteDir = mkdtempSync(join(tmpdir(), 'browserdeck-bench-shares-'));
let sqliteOrm: BrowserdeckOrm | undefined;
try {
  sqliteOrm = await createMikroOrm({ databaseUrl: `sqlite:${join(sqliteDir, 'bench.sqlite')}` });
  await migrateToLatest(sqliteOrm);
  const sqlite = await roundTrips(new MikroOrmSessionShares({ orm: sqliteOrm }), 'sqlite');
  rows.push(row('SQLite: claim', sqlite.claim), row('SQLite: free', sqlite.free));
  rows.push(row('**SQLite: claim + free**', sqlite.total));
} finally {
  await sqliteOrm?.close(true);
  rmSync(sqliteDir, { recursive: true, force: true });
}

const pg = await startPostgresServer();
const name = `bench_shares_${process.pid}`;
const orms: BrowserdeckOrm[] = [];
try {
  const url = await createDatabase(pg.adminUrl, name);
  orms.push(await createMikroOrm({ databaseUrl: url }), await createMikroOrm({ databaseUrl: url }));
  await migrateToLatest(orms[0]!);
  const a: SessionShares = new MikroOrmSessionShares({ orm: orms[0]! });
  const b: SessionShares = new MikroOrmSessionShares({ orm: orms[1]! });
  const postgres = await roundTrips(a, 'pg');
  rows.push(row('PostgreSQL: claim', postgres.claim), row('PostgreSQL: free', postgres.free));
  rows.push(row('**PostgreSQL: claim + free**', postgres.total));
  rows.push(row('PostgreSQL: two claims at once, one account (each claim)', await contended(a, b)));
} finally {
  for (const orm of orms) await orm.close(true);
  await dropDatabase(pg.adminUrl, name).catch(() => {});
  await pg.stop();
}

console.log(
  [
    `${N} round trips per row after ${WARM_UP} warm-ups, one after another, the account holding one other slot; the contended row: ${N} rounds of two claims at the same instant for one account with a share of 1, from two ORMs (two connection pools, as two instances), exactly one granted each round. Milliseconds, wall time in the process; p95 is the nearest rank. A claim is one transaction: on PostgreSQL \`pg_advisory_xact_lock(hashtext(owner))\`, the owner's stale slots deleted, its slots read, one inserted; a free is one \`delete\`.`,
    '',
    table(['ledger', 'n', 'p50 ms', 'p95 ms'], rows),
  ].join('\n'),
);
