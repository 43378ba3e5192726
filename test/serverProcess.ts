import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';

const MAIN = resolve(import.meta.dirname, '../examples/server/src/main.ts');

/** The standalone server started as `npm start` starts it, in a child process. */
export interface ServerProcess {
  readonly url: string;
  readonly child: ChildProcess;
  /** Everything it printed so far. */
  output(): string;
  /** Resolves with the exit code when the process ends. */
  readonly exited: Promise<number | null>;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

/** How the process is started beyond its environment. */
export interface ServerProcessOptions {
  /** Arguments after the entry, e.g. `['--worker']` as `npm run worker` passes. */
  readonly args?: readonly string[];
  /** In a process group of its own, so a test can signal the whole group (`process.kill(-pid)`). */
  readonly detached?: boolean;
}

/**
 * Starts `examples/server/src/main.ts` on a free port with `env` over a clean environment (but the
 * test run's `CHROMIUM_PATH`) and waits for its "listening" log line. Rejects with the output if it
 * exits first.
 */
export function startServerProcess(
  env: Record<string, string>,
  timeoutMs = 30_000,
  options: ServerProcessOptions = {},
): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--conditions=source', MAIN, ...(options.args ?? [])], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      PORT: '0',
      LOG_LEVEL: 'info',
      // The Chromium the browser tests run on (`npm run test:browsers:system` sets Debian's).
      ...(process.env.CHROMIUM_PATH ? { CHROMIUM_PATH: process.env.CHROMIUM_PATH } : {}),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: options.detached ?? false,
  });
  let output = '';
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  return new Promise((resolveStart, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start within ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /"url":"(http:\/\/[^"]+)"[^\n]*Browserdeck is listening/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolveStart({
          url: match[1] as string,
          child,
          output: () => output,
          exited,
          stop: () => {
            child.kill('SIGTERM');
            return exited;
          },
        });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening:\n${output}`));
    });
  });
}

/**
 * For the tests of a file or `describe`: a server started before them (`startServerProcess`, with
 * a data folder of its own named after `prefix`, and `env`, made when it starts) and stopped after
 * them, which must exit 0. `server` is set once it is listening.
 */
export function serverForTests(
  prefix: string,
  env: () => Record<string, string> | Promise<Record<string, string>> = () => ({}),
): { readonly server: ServerProcess } {
  let dataDir: string | undefined;
  const held: { server?: ServerProcess } = {};
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), `browserdeck-${prefix}-`));
    held.server = await startServerProcess({ DATA_DIR: dataDir, ...(await env()) }, 60_000);
  });
  afterAll(async () => {
    const code = await held.server?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    expect(code).toBe(0);
  });
  return {
    get server() {
      if (!held.server) throw new Error('the server has not started (beforeAll)');
      return held.server;
    },
  };
}
