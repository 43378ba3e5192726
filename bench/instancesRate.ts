/**
 * Sessions created per second for the `instances` scenario: create+release loops from concurrent
 * clients on the Selenium Grid provider, with the CPU each side spent per session.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { type ApiServer, call, newUser } from './api.ts';
import { quantiles, type RatePhase } from './instancesFigures.ts';
import { cpuSeconds } from './rssSampler.ts';

/** One account's Grid-provider sessions on one instance: create, release. */
export async function gridAccountOn(server: ApiServer) {
  const token = await newUser(server.url);
  const project = await call<{ id: string }>(server.url, 'POST', '/v1/projects', {
    token,
    body: { name: 'Grid bench' },
    expect: 201,
  });
  const base = `/v1/selenium-grid/projects/${project.id}/sessions`;
  return {
    create: () =>
      call<{ id: string; connectUrl: string }>(server.url, 'POST', base, { token, body: {}, expect: 201 }),
    release: (id: string) => call(server.url, 'POST', `${base}/${id}:release`, { token, body: {} }),
  };
}
export type GridAccount = Awaited<ReturnType<typeof gridAccountOn>>;

/** What a rate phase runs against: the two instances' processes, and the Grid (or its stand-in). */
export interface RateTarget {
  readonly pids: readonly [number, number];
  /** Resolves once the Grid holds no session. */
  idle(): Promise<void>;
  /** CPU time (s) the Grid has spent so far, read while it is idle. */
  gridCpuSeconds(): number;
  /** New-session requests waiting in the Grid's queue now, when it can tell. */
  queued?(): Promise<number>;
}

/** One create and its release, each timed (ms). */
export async function timedCycle(
  create: () => Promise<string>,
  release: (id: string) => Promise<unknown>,
): Promise<{ create: number; release: number }> {
  const t0 = performance.now();
  const id = await create();
  const t1 = performance.now();
  await release(id);
  return { create: t1 - t0, release: performance.now() - t1 };
}

/**
 * `clients` loops of `cycle` (a create and its release) for `seconds`, from an idle Grid; then the
 * rate, the latencies, and the CPU the instances and the Grid spent per session (read once the Grid
 * is idle again: a Browserdeck release deletes the Grid session in the background).
 */
export async function ratePhase(
  label: string,
  instances: number,
  clients: number,
  seconds: number,
  target: RateTarget,
  cycle: (client: number) => Promise<{ create: number; release: number }>,
): Promise<RatePhase> {
  const creates: number[] = [];
  const releases: number[] = [];
  const failures: string[] = [];
  await target.idle();
  const cpuBefore = target.pids.map(cpuSeconds);
  const gridBefore = target.gridCpuSeconds();
  const machineBefore = machineTicks();
  const t0 = performance.now();
  const deadline = t0 + seconds * 1000;
  const queueSamples: number[] = [];
  const sampling = (async () => {
    while (target.queued && performance.now() < deadline) {
      queueSamples.push(await target.queued().catch(() => Number.NaN));
      await new Promise((done) => setTimeout(done, 250));
    }
  })();
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      while (performance.now() < deadline) {
        try {
          const t = await cycle(client);
          creates.push(t.create);
          releases.push(t.release);
        } catch (error) {
          failures.push(error instanceof Error ? error.message.slice(0, 300) : String(error));
        }
      }
    }),
  );
  const elapsed = (performance.now() - t0) / 1000;
  const machineAfter = machineTicks();
  await sampling;
  await target.idle();
  const perCreate = (cpu: number) => (cpu * 1000) / Math.max(1, creates.length);
  const cpuMs = target.pids.map((pid, i) => perCreate(cpuSeconds(pid) - cpuBefore[i]!));
  return {
    label,
    instances,
    clients,
    seconds: elapsed,
    created: creates.length,
    perSec: creates.length / elapsed,
    create: quantiles(creates),
    release: quantiles(releases),
    instanceCpuMsPerCreate: [cpuMs[0]!, cpuMs[1]!],
    gridCpuMsPerCreate: perCreate(target.gridCpuSeconds() - gridBefore),
    machineBusy: 1 - (machineAfter.idle - machineBefore.idle) / (machineAfter.total - machineBefore.total),
    meanQueued: queueSamples.length
      ? queueSamples.reduce((sum, n) => sum + n, 0) / queueSamples.length
      : Number.NaN,
    failures,
  };
}

/**
 * CPU time (s) of a Grid's Java processes (their command lines name the Grid's folder `dir`) and of
 * every process they ran and waited for (`cutime`, `cstime`: the drivers, and the browsers the
 * drivers waited for). Read with no session running, it is all the Grid has spent.
 */
export function gridCpuSeconds(dir: string): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (!cmdline.startsWith('java\0') && !cmdline.includes('/java\0')) continue;
      if (!cmdline.includes(dir)) continue;
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      total += [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0) / 100;
    } catch {
      // gone while read
    }
  }
  return total;
}

/** Resolves once no slot of the Grid at `url` holds a session (a release deletes in the background). */
export async function gridIdle(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = (await (await fetch(`${url}/status`)).json()) as {
      value?: { nodes?: Array<{ slots?: Array<{ session: unknown }> }> };
    };
    const busy = (status.value?.nodes ?? []).flatMap((n) => n.slots ?? []).filter((s) => s.session !== null);
    if (busy.length === 0) return;
    if (Date.now() > deadline) throw new Error(`${busy.length} Grid slots still busy after ${timeoutMs} ms`);
    await new Promise((done) => setTimeout(done, 100));
  }
}

/** New-session requests in the queue of the Grid at `url` (its GraphQL `grid.sessionQueueSize`). */
export async function gridQueueSize(url: string): Promise<number> {
  const response = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ grid { sessionQueueSize } }' }),
  });
  const body = (await response.json()) as { data?: { grid?: { sessionQueueSize?: number } } };
  return body.data?.grid?.sessionQueueSize ?? Number.NaN;
}

/** The machine's CPU time so far, all of it and idle (iowait counted idle), from /proc/stat. */
function machineTicks(): { total: number; idle: number } {
  const fields = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '')
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  return { total: fields.reduce((a, b) => a + b, 0), idle: (fields[3] ?? 0) + (fields[4] ?? 0) };
}
