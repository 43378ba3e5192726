/**
 * Scenario 4, Scale: many tracked sessions (default 1,000,000 over 1,000 projects, 10,000 in the
 * measured project) on PostgreSQL and on SQLite. Times `GET …/sessions?status=RUNNING&limit=20`,
 * `GET …/sessions/dashboard/stats`, and the stats with a series (`interval=hour`: the last 24 h;
 * `interval=day`: the last 30 days) through the real server process (auth, routing, presenting
 * included) and shows the query plans. `npm run bench:scale` runs it alone and writes
 * bench/scale-section.md; knobs: BENCH_SCALE_SESSIONS, BENCH_SCALE_PROJECTS, BENCH_SCALE_SAMPLES,
 * BENCH_SCALE_DIALECTS (sqlite,postgres), BENCH_SCALE_COMPARE (1: measure again without the status index).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createMikroOrm } from '@browserdeck/adapters/mikro-orm';
import { SecretBox } from '@browserdeck/adapters/secrets';
import { createDatabase, dropDatabase, startPostgresServer } from '../test/postgresServer.ts';
import { call, newUser } from './api.ts';
import { type DialectFigures, SCALE_TARGETS, scaleMarkdown } from './scaleMarkdown.ts';
import { explainScale, scaleStatements } from './scalePlans.ts';
import type { ScaleShape } from './scaleRows.ts';
import { seedScale } from './scaleSeed.ts';
import { newSecretKey, startScaleServer, timeGets } from './scaleServer.ts';
import { percentile } from './stats.ts';

export { SCALE_TARGETS } from './scaleMarkdown.ts';

export type ScaleDialect = 'sqlite' | 'postgres';

export interface ScaleBenchOptions {
  log: (line: string) => void;
  sessions?: number;
  projects?: number;
  /** Timed requests per endpoint (after 20 untimed). */
  samples?: number;
  dialects?: readonly ScaleDialect[];
  /** Also measure with the `(project_id, status, …)` index dropped. */
  compare?: boolean;
  /** How the run was started, for the report (default `npm run bench:scale`). */
  command?: string;
}

export interface ScaleBenchResult {
  markdown: string;
  failures: string[];
  figures: DialectFigures[];
}

const MEASURED_SESSIONS = 10_000;
const STATUS = 'RUNNING';

/** Runs the Scale scenario on each dialect; a dialect that fails is reported, not thrown. */
export async function runScaleBench(options: ScaleBenchOptions): Promise<ScaleBenchResult> {
  const { log, samples = 200, dialects = ['postgres', 'sqlite'], compare = false } = options;
  const sessions = options.sessions ?? 1_000_000;
  const shape: ScaleShape = {
    sessions,
    projects: Math.max(1, options.projects ?? 1_000),
    measuredSessions: Math.min(MEASURED_SESSIONS, sessions),
  };
  const figures: DialectFigures[] = [];
  const failures: string[] = [];
  for (const dialect of dialects) {
    log(
      `\n== Scale, ${dialect}: ${shape.sessions.toLocaleString('en')} sessions, ${shape.projects} projects`,
    );
    try {
      figures.push(await runDialect(dialect, shape, samples, compare, log));
    } catch (error) {
      const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
      log(`  FAILED: ${message.slice(0, 2000)}`);
      failures.push(`Scale, ${dialect}: ${message.split('\n')[0]!.slice(0, 300)}`);
    }
  }
  for (const f of figures) {
    if (f.list.p95 > SCALE_TARGETS.listP95Ms)
      failures.push(
        `Scale, ${f.dialect}: list p95 ${f.list.p95.toFixed(1)} ms > ${SCALE_TARGETS.listP95Ms} ms`,
      );
    if (f.stats.p95 > SCALE_TARGETS.statsP95Ms)
      failures.push(
        `Scale, ${f.dialect}: stats p95 ${f.stats.p95.toFixed(1)} ms > ${SCALE_TARGETS.statsP95Ms} ms`,
      );
    for (const [label, latency] of [
      ['hour', f.seriesHour],
      ['day', f.seriesDay],
    ] as const) {
      if (latency.p95 > SCALE_TARGETS.seriesP95Ms)
        failures.push(
          `Scale, ${f.dialect}: stats series (interval=${label}) p95 ${latency.p95.toFixed(1)} ms > ${SCALE_TARGETS.seriesP95Ms} ms`,
        );
    }
  }
  return {
    markdown: scaleMarkdown({
      shape,
      samples,
      figures,
      failures,
      command: options.command ?? 'npm run bench:scale',
    }),
    failures,
    figures,
  };
}

async function runDialect(
  dialect: ScaleDialect,
  shape: ScaleShape,
  samples: number,
  compare: boolean,
  log: (line: string) => void,
): Promise<DialectFigures> {
  const work = mkdtempSync(join(tmpdir(), 'browserdeck-scale-'));
  const pg = dialect === 'postgres' ? await startPostgresServer() : undefined;
  const pgDatabase = `scale_${process.pid}_${Date.now()}`;
  try {
    const databaseUrl = pg
      ? await createDatabase(pg.adminUrl, pgDatabase)
      : `sqlite:${join(work, 'scale.sqlite')}`;
    const dataDir = join(work, 'data');
    const secretKey = newSecretKey();
    const serverOptions = { databaseUrl, dataDir, secretKey };

    // The user and the measured project go through the API, so they are exactly what it makes.
    let server = await startScaleServer(serverOptions);
    let token: string;
    let projectId: string;
    try {
      token = await newUser(server.url);
      projectId = (
        await call<{ id: string }>(server.url, 'POST', '/v1/projects', {
          token,
          body: { name: 'Scale bench' },
          expect: 201,
        })
      ).id;
    } finally {
      await server.stop();
    }

    const orm = await createMikroOrm({ databaseUrl, poolSize: 2 });
    try {
      const box = new SecretBox(Buffer.from(secretKey, 'hex'));
      const sealedEnvs = Array.from({ length: 64 }, (_, i) =>
        box.seal(JSON.stringify(i % 4 === 0 ? {} : { API_TOKEN: `token-${i}`, REGION: 'eu' })),
      );
      const now = Date.now();
      log('  seeding');
      const seedSec = await seedScale({
        orm,
        dialect: pg ? 'postgresql' : 'sqlite',
        shape,
        measuredProjectId: projectId,
        sealedEnvs,
        now,
        log,
      });
      log(`  seeded in ${seedSec.toFixed(1)} s`);

      server = await startScaleServer(serverOptions);
      try {
        const base = `/v1/local/projects/${projectId}/sessions`;
        const listPath = `${base}?status=${STATUS}&limit=20`;
        const statsPath = `${base}/dashboard/stats`;
        const hourPath = `${statsPath}?interval=hour`;
        const dayPath = `${statsPath}?interval=day`;
        const listed = await call<{ total: number; sessions: unknown[] }>(server.url, 'GET', listPath, {
          token,
        });
        const stats = await call<{ total: number }>(server.url, 'GET', statsPath, { token });
        log(`  measured project: ${stats.total} sessions, ${listed.total} ${STATUS}`);
        type Series = { series: Array<{ created: number }> };
        const seriesCreated = async (path: string) => {
          const { series } = await call<Series>(server.url, 'GET', path, { token });
          return { buckets: series.length, created: series.reduce((sum, b) => sum + b.created, 0) };
        };
        const hourly = await seriesCreated(hourPath);
        const daily = await seriesCreated(dayPath);
        log(
          `  series: ${hourly.buckets} hours with ${hourly.created} created, ${daily.buckets} days with ${daily.created} created`,
        );

        const measure = async (label: string) => {
          const loadBefore = loadavg()[0]!;
          const [list, statsTimes, hourTimes, dayTimes, floor] = await timeGets(
            server.url,
            token,
            [listPath, statsPath, hourPath, dayPath, `/v1/projects/${projectId}`],
            samples,
          );
          const latency = (times: number[] | undefined) => ({
            p50: percentile(times!, 50),
            p95: percentile(times!, 95),
          });
          const summary = {
            list: latency(list),
            stats: latency(statsTimes),
            seriesHour: latency(hourTimes),
            seriesDay: latency(dayTimes),
            floor: latency(floor),
            load: [loadBefore, loadavg()[0]!] as const,
          };
          const ms = (l: { p50: number; p95: number }) =>
            `p50 ${l.p50.toFixed(2)} / p95 ${l.p95.toFixed(2)} ms`;
          log(
            `  ${label}: list ${ms(summary.list)}, stats ${ms(summary.stats)}, hour series ${ms(summary.seriesHour)}, day series ${ms(summary.seriesDay)} (load ${summary.load.map((l) => l.toFixed(2)).join(' → ')})`,
          );
          return summary;
        };
        const ormDialect = pg ? 'postgresql' : 'sqlite';
        const explain = () =>
          explainScale(orm, ormDialect, scaleStatements(orm, ormDialect, projectId, STATUS, new Date()));

        const measured = await measure('with the indexes');
        const plans = await explain();
        let without: DialectFigures['without'];
        if (compare) {
          await orm.em
            .getConnection()
            .execute('drop index browser_sessions_project_id_status_created_at_index');
          await orm.em.getConnection().execute('analyze browser_sessions');
          const m = await measure('without (project_id, status, …)');
          without = { ...m, plans: await explain() };
        }
        return {
          dialect,
          seedSec,
          measuredTotal: stats.total,
          runningTotal: listed.total,
          seriesShape: { hour: hourly, day: daily },
          ...measured,
          plans,
          without,
        };
      } finally {
        await server.stop();
      }
    } finally {
      await orm.close(true);
    }
  } finally {
    // A server named by DATABASE_URL outlives the run: leave no 1M-row database behind on it.
    if (pg) await dropDatabase(pg.adminUrl, pgDatabase).catch(() => {});
    await pg?.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

const isMain = process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename);
if (isMain) {
  const num = (name: string) => (process.env[name] ? Number(process.env[name]) : undefined);
  const dialects = (process.env.BENCH_SCALE_DIALECTS ?? 'postgres,sqlite')
    .split(',')
    .map((d) => d.trim())
    .filter((d): d is ScaleDialect => d === 'postgres' || d === 'sqlite');
  const started = Date.now();
  console.log(`${cpus().length} CPUs, 1-min load average ${loadavg()[0]!.toFixed(2)} at the start`);
  const result = await runScaleBench({
    log: (line) => console.log(line),
    sessions: num('BENCH_SCALE_SESSIONS'),
    projects: num('BENCH_SCALE_PROJECTS'),
    samples: num('BENCH_SCALE_SAMPLES'),
    dialects,
    compare: process.env.BENCH_SCALE_COMPARE === '1',
    command: `${process.env.BENCH_SCALE_COMPARE === '1' ? 'BENCH_SCALE_COMPARE=1 ' : ''}npm run bench:scale`,
  });
  console.log(`\n${result.markdown}`);
  const target = process.env.BENCH_SCALE_OUT ?? resolve(import.meta.dirname, 'scale-section.md');
  writeFileSync(target, result.markdown);
  console.log(`written to ${target} (took ${((Date.now() - started) / 1000).toFixed(0)} s)`);
  process.exit(0);
}
