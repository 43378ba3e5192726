import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const dirs: string[] = [];

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Every process below `pid`, from /proc. */
function descendants(pid: number): Map<number, string> {
  const children = new Map<number, number[]>();
  const commands = new Map<number, string>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The command name is in parentheses and may hold spaces; the parent pid follows it.
      const close = stat.lastIndexOf(')');
      const parent = Number(stat.slice(close + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
      commands.set(Number(entry), stat.slice(stat.indexOf('(') + 1, close));
    } catch {
      // gone meanwhile
    }
  }
  const found = new Map<number, string>();
  const queue = [pid];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift()!) ?? []) {
      found.set(child, commands.get(child) ?? '?');
      queue.push(child);
    }
  }
  return found;
}

/** Running: not gone, and not a zombie waiting for its parent. */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

async function until<T>(probe: () => T | undefined, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((done) => setTimeout(done, 100));
  }
}

describe('npm start under a supervisor', () => {
  it('stops the server and its browsers when npm gets SIGTERM, as Docker and systemd send it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'browserdeck-npm-start-'));
    dirs.push(dataDir);
    // The npm that runs this test, else the one on PATH.
    const npm = process.env.npm_execpath;
    const [command, args] = npm?.endsWith('.js') ? [process.execPath, [npm, 'start']] : ['npm', ['start']];
    const child = spawn(command, args, {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        DATA_DIR: dataDir,
        PORT: '0',
        LOCAL_WARM_BROWSERS: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
    const npmPid = child.pid!;
    let tree = new Map<number, string>();
    try {
      await until(
        () => (output.includes('Browserdeck is listening') ? true : undefined),
        60_000,
        'listening',
      );
      // The warm browser is up once a Chromium process runs below npm.
      tree = await until(
        () => {
          const found = descendants(npmPid);
          return [...found.values()].some((name) => /chrom/i.test(name)) ? found : undefined;
        },
        60_000,
        `a warm browser below npm (${output})`,
      );

      process.kill(npmPid, 'SIGTERM');
      expect(await exited).toBe(0);
      expect(output).toMatch(/"signal":"SIGTERM"[^\n]*shutting down/);
      expect(output).toContain('"msg":"stopped"');
      const left = await until(
        () => {
          const living = [...tree.keys()].filter(alive);
          return living.length === 0 ? living : undefined;
        },
        15_000,
        `the server and browser processes to end: ${JSON.stringify([...tree].filter(([pid]) => alive(pid)))}`,
      );
      expect(left).toEqual([]);
    } finally {
      for (const pid of [npmPid, ...tree.keys(), ...descendants(npmPid).keys()]) {
        if (alive(pid)) process.kill(pid, 'SIGKILL');
      }
    }
  }, 120_000);
});
