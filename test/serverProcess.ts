import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';

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
