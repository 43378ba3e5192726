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

/**
 * Starts `examples/server/src/main.ts` on a free port with `env` over a clean environment and waits
 * for its "listening" log line. Rejects with the output if it exits first.
 */
export function startServerProcess(env: Record<string, string>, timeoutMs = 30_000): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--conditions=source', MAIN], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
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
