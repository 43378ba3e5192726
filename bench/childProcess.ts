import { type ChildProcess, spawn } from 'node:child_process';

/** A helper process the benchmark started, and how to stop it. */
export interface Child {
  readonly url: string;
  readonly child: ChildProcess;
  output(): string;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves when it has exited. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * Runs `node [nodeArgs] script` with `env` over a clean environment, then waits (bounded by
 * `timeoutMs`) until `GET url + readyPath` answers 2xx. Rejects with the output if it exits first.
 */
export async function startChild(options: {
  script: string;
  nodeArgs?: string[];
  env: Record<string, string>;
  port: number;
  readyPath: string;
  timeoutMs?: number;
}): Promise<Child> {
  const { script, nodeArgs = [], env, port, readyPath, timeoutMs = 60_000 } = options;
  const child = spawn(process.execPath, ['--conditions=source', ...nodeArgs, script], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const onData = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  let exitCode: number | null | undefined;
  const exited = new Promise<void>((done) =>
    child.once('exit', (code) => {
      exitCode = code;
      done();
    }),
  );
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (exitCode !== undefined) throw new Error(`${script} exited with ${exitCode} before ready:\n${output}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${script} not ready within ${timeoutMs} ms:\n${output}`);
    }
    const ok = await fetch(url + readyPath, { signal: AbortSignal.timeout(1000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    child,
    output: () => output,
    async stop(graceMs = 10_000) {
      if (exitCode !== undefined) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}
