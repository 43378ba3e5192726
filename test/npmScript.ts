import { spawn } from 'node:child_process';
import { resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');

/** What an npm script printed and how it ended. */
export interface NpmScriptResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `npm <args>` at the repository root as an operator would (`npm run -s keys`, `npm run backup
 * -- <dest>`), with the npm that runs the tests (else the one on `PATH`), over a clean environment
 * (`PATH`, `HOME`) plus `env`.
 */
export function npmScript(
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<NpmScriptResult> {
  const npm = process.env.npm_execpath;
  const [command, prefix] = npm?.endsWith('.js') ? [process.execPath, [npm]] : ['npm', []];
  const child = spawn(command, [...prefix, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((done, fail) => {
    child.once('error', fail);
    child.once('close', (code) => done({ code, stdout, stderr }));
  });
}
