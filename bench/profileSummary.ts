import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** A phase of the profiled run, in microseconds of the monotonic clock (`process.hrtime`). */
export interface ProfileWindow {
  name: string;
  startUs: number;
  endUs: number;
}

export interface ProfileTop {
  name: string;
  /** Samples in the window, and the share of them the process was idle. */
  samples: number;
  idle: number;
  functions: Array<{ name: string; share: number }>;
  modules: Array<{ name: string; share: number }>;
}

/** The monotonic clock in µs, the clock V8 stamps profile samples with on Linux. */
export const monotonicUs = (): number => Number(process.hrtime.bigint() / 1000n);

/** Where a frame's code lives: an npm package, a workspace file, or node internals. */
function moduleOf(url: string): string {
  if (url.startsWith('node:internal/deps/undici')) return 'node: undici (global fetch)';
  if (url.startsWith('node:internal/crypto')) return 'node: crypto';
  if (url.startsWith('node:internal/http') || url.startsWith('node:_http')) return 'node: http';
  if (url.startsWith('node:')) return 'node: other internals';
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 'node_modules/'.length).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  const ws = /\/(packages|examples)\/([^/]+)\/src\/(.*)$/.exec(url);
  return ws ? `${ws[1]}/${ws[2]}/src/${ws[3]}` : url;
}

const VM = new Set(['(program)', '(idle)', '(garbage collector)', '(root)']);

/**
 * Self-time shares of the busiest functions and modules in the newest `.cpuprofile` of `dir`, per
 * window (samples outside every window are dropped; with no windows, the whole profile). Idle time is
 * excluded from the shares. A native frame (no script URL, e.g. `writeUtf8String`) is named with
 * its nearest JavaScript caller and counted in that caller's module.
 */
export function summariseProfile(dir: string, windows: ProfileWindow[] = [], top = 12): ProfileTop[] {
  const file = readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .sort()
    .at(-1);
  if (!file) throw new Error(`no .cpuprofile in ${dir}`);
  const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const label = new Map<number, { fn: string; mod: string }>();
  const describe = (id: number) => {
    const cached = label.get(id);
    if (cached) return cached;
    const node = byId.get(id)!;
    const { functionName, url, lineNumber } = node.callFrame;
    let result: { fn: string; mod: string };
    if (url) {
      const mod = moduleOf(url);
      result = { fn: `${functionName || '(anonymous)'} ${mod}:${lineNumber + 1}`, mod };
    } else if (VM.has(functionName)) {
      result = {
        fn: functionName,
        mod: functionName === '(garbage collector)' ? '(garbage collector)' : '(VM)',
      };
    } else {
      let up = parent.get(id);
      while (up !== undefined && !byId.get(up)!.callFrame.url) up = parent.get(up);
      const caller = up === undefined ? undefined : describe(up);
      result = {
        fn: `${functionName || '(native)'} ← ${caller?.fn ?? '?'}`,
        mod: caller?.mod ?? '(native)',
      };
    }
    label.set(id, result);
    return result;
  };
  const all = windows.length ? windows : [{ name: 'whole run', startUs: -Infinity, endUs: Infinity }];
  const counts = all.map(() => ({
    fns: new Map<string, number>(),
    mods: new Map<string, number>(),
    n: 0,
    idle: 0,
  }));
  let t = profile.startTime;
  profile.samples.forEach((id, i) => {
    t += profile.timeDeltas[i] ?? 0;
    const w = all.findIndex((win) => t >= win.startUs && t < win.endUs);
    if (w < 0) return;
    const c = counts[w]!;
    c.n++;
    const { fn, mod } = describe(id);
    if (fn === '(idle)') {
      c.idle++;
      return;
    }
    c.fns.set(fn, (c.fns.get(fn) ?? 0) + 1);
    c.mods.set(mod, (c.mods.get(mod) ?? 0) + 1);
  });
  return all.map((win, w) => {
    const c = counts[w]!;
    const busy = c.n - c.idle || 1;
    const ranked = (m: Map<string, number>) =>
      [...m.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, top)
        .map(([name, count]) => ({ name, share: count / busy }));
    return {
      name: win.name,
      samples: c.n,
      idle: c.n ? c.idle / c.n : 0,
      functions: ranked(c.fns),
      modules: ranked(c.mods),
    };
  });
}
