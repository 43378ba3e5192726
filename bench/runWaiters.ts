/**
 * Waiters benchmark (issue 34): what idle log streams cost the server. One server started as
 * `npm start` starts it (SQLite, local provider, RUN_MAX_WAITERS_PER_OWNER raised to hold them all),
 * one run that waits, then N Server-Sent Events streams on it held open and idle. The server's CPU
 * time (utime + stime from /proc) is sampled over the same window with no stream and with N, in
 * turn, and its RSS. Prints a markdown section (section 14 of docs/benchmarks.md). All traffic is on
 * 127.0.0.1.
 *
 *   npm exec -- node --conditions=source bench/runWaiters.ts [streams]
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { type ClientRequest, get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signUpUser } from '../test/runsApi.ts';
import { startServerProcess } from '../test/serverProcess.ts';

const STREAMS = Number(process.argv[2] ?? 1000);
const WINDOW_SEC = Number(process.env.BENCH_WAITERS_WINDOW_SEC ?? 20);
const ROUNDS = Number(process.env.BENCH_WAITERS_ROUNDS ?? 2);
const TICKS = 100; // USER_HZ on Linux.

const dataDir = mkdtempSync(join(tmpdir(), 'browserdeck-bench-waiters-'));
const server = await startServerProcess(
  { DATA_DIR: dataDir, RUN_MAX_WAITERS_PER_OWNER: String(STREAMS + 16), SHUTDOWN_GRACE_SEC: '4' },
  60_000,
);
const pid = server.child.pid as number;
const cpuSec = () => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS;
};
const rssMb = () =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
const idleShare = async () => {
  const before = cpuSec();
  await new Promise((resolve) => setTimeout(resolve, WINDOW_SEC * 1000));
  return ((cpuSec() - before) / WINDOW_SEC) * 100;
};

const user = await signUpUser(server.url);
const agent = await user.agent('await new Promise(() => {});');
const run = (await user.start(agent, { timeoutSec: 3600 })).body;
await user.terminal(run.id, 1000).catch(() => undefined);
const requests: ClientRequest[] = [];
/** Opens one stream on a connection of its own (`agent: false`); resolves once it answers 200. */
const openStream = () =>
  new Promise<void>((resolve, reject) => {
    const request = get(
      `${server.url}${user.base}/runs/${run.id}/logs/stream`,
      { agent: false, headers: { Authorization: `Bearer ${user.token}` } },
      (response) => {
        response.resume();
        if (response.statusCode === 200) resolve();
        else reject(new Error(`stream: ${response.statusCode}`));
      },
    );
    request.on('error', () => {});
    requests.push(request);
  });
const rows: string[] = [];
const rss = { none: 0, open: 0 };
for (let round = 0; round < ROUNDS; round++) {
  const none = await idleShare();
  rss.none = rssMb();
  // In groups of 50: a thousand handshakes at once would only measure the accept queue.
  for (let opened = 0; opened < STREAMS; opened += 50)
    await Promise.all(Array.from({ length: Math.min(50, STREAMS - opened) }, openStream));
  const open = await idleShare();
  rss.open = rssMb();
  rows.push(
    `| ${round + 1} | ${none.toFixed(2)} % | ${open.toFixed(2)} % | ${(open - none).toFixed(2)} points |`,
  );
  for (const request of requests.splice(0)) request.destroy();
  await new Promise((resolve) => setTimeout(resolve, 2000));
}
await user.call('POST', `${user.base}/runs/${run.id}:cancel`);
await server.stop();
rmSync(dataDir, { recursive: true, force: true });

console.log(
  [
    `One server as \`npm start\` starts it (SQLite, local provider), one run waiting; ${STREAMS} log streams (\`GET …/runs/{id}/logs/stream\`, one HTTP connection each) held open and idle. The server's CPU time (utime + stime, /proc/${'{pid}'}/stat) over ${WINDOW_SEC} s without them, then with them, in ${ROUNDS} rounds. A stream wakes on a change of its run (nothing changes here) and sends a comment every 15 s; nothing reads the database on a timer.`,
    '',
    `| round | no stream | ${STREAMS} idle streams | difference |`,
    '| ---: | ---: | ---: | ---: |',
    ...rows,
    '',
    `RSS with ${STREAMS} streams open: ${rss.open.toFixed(0)} MiB (${rss.none.toFixed(0)} MiB without). Target (issue 34): ${STREAMS} idle streams under 5 % of a core.`,
  ].join('\n'),
);
