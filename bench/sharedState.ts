/**
 * Scenario `shared` (issue 37): what state that no instance owns costs. Two servers (processes of
 * their own, LOG_LEVEL=silent) on one PostgreSQL database, each with its own data folder, sharing
 * the keys, the local provider. Rounds alternate, so both sides see the same machine:
 *
 * - create → first evaluate: `POST …/sessions` on A, then a CDP connection to the session's
 *   connectUrl and `Runtime.evaluate 1+1` on its page, straight to A (the holder) against through
 *   B (the non-holder, which carries the WebSocket to A);
 * - a context's open: a session saving to one context (`contextId`, the native API), created on
 *   the instance that saved it last (its unpacked copy: local disk) against on the other one (the
 *   profile read from the database and unpacked), and the release that stores the profile.
 *
 * `node --conditions=source bench/sharedState.ts [rounds]` prints a markdown table.
 */
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { createDatabase, dropDatabase, startPostgresServer } from '../test/postgresServer.ts';
import { type ApiServer, call, newUser, startApiServer } from './api.ts';
import { openPageCdp } from './instancesCdp.ts';
import { instanceEnv, sharedKeys, through } from './instancesForwarding.ts';
import { fmt, median, percentile, table } from './stats.ts';

const ROUNDS = Number(process.argv[2] ?? 10);

const pgServer = await startPostgresServer();
const name = `bench_shared_${process.pid}`;
const servers: ApiServer[] = [];
try {
  const databaseUrl = await createDatabase(pgServer.adminUrl, name);
  const { secretKey, jwtKey } = sharedKeys();
  const env = (id: string) =>
    instanceEnv(databaseUrl, secretKey, jwtKey, id, { LOCAL_WARM_BROWSERS: '0', LOCAL_MAX_SESSIONS: '2' });
  // One after the other: the first runs the migrations.
  const a = await startApiServer(env('bench-a'));
  servers.push(a);
  const b = await startApiServer(env('bench-b'));
  servers.push(b);
  const token = await newUser(a.url);
  const project = await call<{ id: string }>(a.url, 'POST', '/v1/projects', {
    token,
    body: { name: 'Shared state bench' },
    expect: 201,
  });
  const base = `/v1/local/projects/${project.id}/sessions`;
  const create = (server: ApiServer, body: Record<string, unknown> = {}) =>
    call<{ id: string; connectUrl: string }>(server.url, 'POST', base, { token, body, expect: 201 });
  const release = (server: ApiServer, id: string) =>
    call(server.url, 'POST', `${base}/${id}:release`, { token, expect: 200 });

  const firstEvaluate = { holder: [] as number[], other: [] as number[] };
  const evaluateVia = async (side: 'holder' | 'other', record: boolean) => {
    const t0 = performance.now();
    const session = await create(a);
    const cdp = await openPageCdp(side === 'holder' ? session.connectUrl : through(b, session.connectUrl));
    await cdp.evaluate();
    const ms = performance.now() - t0;
    await cdp.close();
    await release(a, session.id);
    if (record) firstEvaluate[side].push(ms);
  };
  for (const record of [false, true])
    for (let i = 0; i < (record ? ROUNDS : 2); i++)
      for (const side of i % 2 ? (['other', 'holder'] as const) : (['holder', 'other'] as const))
        await evaluateVia(side, record);

  // A profile with something in it: a page visited, storage written.
  const contextId = 'bench-context';
  const first = await create(a, { contextId });
  const cdp = await openPageCdp(first.connectUrl);
  await cdp.evaluate();
  await cdp.close();
  await release(a, first.id);
  const open = { disk: [] as number[], database: [] as number[], save: [] as number[] };
  // The last save is B's or A's in turn: each instance opens it first from the database, then
  // (the save it just made, kept unpacked) from its own disk.
  const openOn = async (server: ApiServer, from: 'disk' | 'database', record: boolean) => {
    const t0 = performance.now();
    const session = await create(server, { contextId });
    const opened = performance.now() - t0;
    const t1 = performance.now();
    await release(server, session.id);
    const saved = performance.now() - t1;
    if (record) {
      open[from].push(opened);
      open.save.push(saved);
    }
  };
  for (const record of [false, true])
    for (let i = 0; i < (record ? ROUNDS : 1); i++)
      for (const server of [b, a]) {
        await openOn(server, 'database', record);
        await openOn(server, 'disk', record);
      }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const { rows } = await client.query('select size from browser_contexts where id = $1', [contextId]);
  await client.end();
  const profileBytes = Number(rows[0]?.size ?? 0);

  const row = (label: string, values: number[]) => [
    label,
    String(values.length),
    fmt(median(values), 1),
    fmt(percentile(values, 95), 1),
  ];
  const ratio = (x: number[], y: number[]) => fmt(median(x) / median(y), 2);
  console.log(
    [
      `${ROUNDS} rounds per row after warm-ups, the sides alternating; milliseconds, wall time in the bench process; p95 is the nearest rank. Two instances on one PostgreSQL (${pgServer.description}), LOCAL_WARM_BROWSERS=0: every create launches a browser. The context's stored profile is ${fmt(profileBytes / 1024, 0)} KiB zipped.`,
      '',
      table(
        ['what', 'n', 'p50 ms', 'p95 ms'],
        [
          row('create → first evaluate, CDP to the holder', firstEvaluate.holder),
          row('create → first evaluate, CDP through the other instance', firstEvaluate.other),
          row('context open (create): unpacked copy on this instance’s disk', open.disk),
          row('context open (create): profile read from the database and unpacked', open.database),
          row('release of a session saving to it (profile zipped and stored)', open.save),
        ],
      ),
      '',
      `Through the other instance ÷ to the holder: ${ratio(firstEvaluate.other, firstEvaluate.holder)}×. From the database ÷ from local disk: ${ratio(open.database, open.disk)}×.`,
    ].join('\n'),
  );
} finally {
  for (const server of servers) await server.stop().catch(() => {});
  await dropDatabase(pgServer.adminUrl, name).catch(() => {});
  await pgServer.stop();
}
