import { spawn } from 'node:child_process';
import { text } from 'node:stream/consumers';
import { expect } from 'vitest';

/**
 * Runs a script with this Node and only `env` (plus PATH), as a user would run it, expects it to exit
 * 0 (naming its output otherwise) and answers what it printed.
 */
export async function runNodeScript(script: string, env: Record<string, string>): Promise<string> {
  const child = spawn(process.execPath, [script], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const [out, err, code] = await Promise.all([
    text(child.stdout),
    text(child.stderr),
    new Promise((done) => child.once('exit', done)),
  ]);
  expect(code, `${out}\n${err}`).toBe(0);
  return out;
}
