import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, chown, cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './freePort.ts';
import type { PostgresServer } from './PostgresServerHandle.ts';
import { type PostgresAccount, postgresAccount } from './postgresAccount.ts';

const run = promisify(execFile);

/** Which PostgreSQL programs to run. */
export interface PostgresProcessOptions {
  /** The folder holding `initdb` and `postgres`. */
  binDir: string;
  /**
   * Copy the installation (the parent of `binDir`: bin, lib, share) into the server's own folder
   * first when the server runs as another account (as root: `postgres`), which may not be able to
   * reach it where it is, e.g. inside a clone in a private 0700 folder such as /root.
   */
  relocate?: boolean;
}

const READY = 'database system is ready to accept connections';
const FLAGS = [
  ['listen_addresses', '127.0.0.1'],
  ['unix_socket_directories', ''],
  ['max_connections', '300'],
  // Throwaway data: durability only costs time here.
  ['fsync', 'off'],
  ['synchronous_commit', 'off'],
  ['full_page_writes', 'off'],
].flatMap(([name, value]) => ['-c', `${name}=${value}`]);

/**
 * A throwaway PostgreSQL server from the given programs, on a free loopback port. Everything it
 * has (data, the copied programs) is in one fresh folder of the OS temp folder, which `stop()`
 * deletes; the superuser password passes through a 0600 file that is deleted once `initdb` has read
 * it. Failures reject with a short message and the end of the server's log, never a raw stack.
 */
export async function startPostgresProcess(options: PostgresProcessOptions): Promise<PostgresServer> {
  const account = await postgresAccount();
  const workDir = await mkdtemp(join(tmpdir(), 'browserdeck-pg-'));
  try {
    // mkdtemp makes the folder 0700; the postgres account must traverse it to reach its data.
    if (account) await chmod(workDir, 0o755);
    let binDir = options.binDir;
    if (options.relocate && account) {
      const installation = join(workDir, 'installation');
      await cp(dirname(binDir), installation, { recursive: true, verbatimSymlinks: true });
      binDir = join(installation, basename(binDir));
    }
    const password = randomBytes(18).toString('hex');
    const dataDir = join(workDir, 'data');
    await initialise({ binDir, dataDir, workDir, password, account });
    const { child, port } = await launch({ binDir, dataDir, workDir, account });
    // Should the runner exit without calling stop(), the server goes too.
    const onExit = () => child.kill('SIGINT');
    process.once('exit', onExit);
    return {
      adminUrl: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
      description: `PostgreSQL from ${options.binDir}`,
      stop: async () => {
        process.off('exit', onExit);
        await shutDown(child);
        await rm(workDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(workDir, { recursive: true, force: true });
    throw error;
  }
}

interface Layout {
  binDir: string;
  dataDir: string;
  workDir: string;
  account: PostgresAccount | undefined;
}

async function initialise({ password, ...layout }: Layout & { password: string }): Promise<void> {
  const { binDir, dataDir, workDir, account } = layout;
  const passwordFile = join(workDir, 'password');
  await writeFile(passwordFile, `${password}\n`, { mode: 0o600, flag: 'wx' });
  try {
    await mkdir(dataDir, { mode: 0o700 });
    if (account) {
      await chown(passwordFile, account.uid, account.gid);
      await chown(dataDir, account.uid, account.gid);
    }
    const initdb = join(binDir, 'initdb');
    await run(
      initdb,
      [
        `--pgdata=${dataDir}`,
        '--username=postgres',
        `--pwfile=${passwordFile}`,
        '--auth=scram-sha-256',
        '--encoding=UTF8',
        '--no-locale',
        '--no-sync',
      ],
      { ...spawnOptions(layout), timeout: 120_000 },
    ).catch((error: Error & { stderr?: string }) => {
      throw new Error(`${initdb} failed: ${explain(error, initdb, error.stderr)}`);
    });
  } finally {
    await rm(passwordFile, { force: true });
  }
}

async function launch(layout: Layout): Promise<{ child: ChildProcess; port: number }> {
  const postgres = join(layout.binDir, 'postgres');
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const child = spawn(postgres, ['-D', layout.dataDir, '-p', String(port), ...FLAGS], {
      ...spawnOptions(layout),
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const log = { text: '' };
    // The log is read to its end for as long as the server runs, or a full pipe would stall it.
    child.stderr?.on('data', (chunk: Buffer) => {
      log.text = (log.text + chunk.toString('utf8')).slice(-8000);
    });
    try {
      await ready(child, log);
      return { child, port };
    } catch (error) {
      await shutDown(child);
      // Another process may have taken the port between the probe and the bind.
      if (attempt < 3 && /could not bind|address already in use/i.test(log.text)) continue;
      throw new Error(`${postgres} did not start: ${explain(error as Error, postgres, log.text)}`);
    }
  }
}

function ready(child: ChildProcess, log: { text: string }): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('not ready within 60 s')), 60_000);
    const settle = (error?: Error) => {
      clearTimeout(timer);
      child.stderr?.off('data', onData);
      child.off('exit', onExit);
      child.off('error', settle);
      if (error) reject(error);
      else resolve();
    };
    const onData = () => {
      if (log.text.includes(READY)) settle();
    };
    const onExit = (code: number | null, signal: string | null) =>
      settle(new Error(`exited (${signal ?? `code ${code}`})`));
    child.stderr?.on('data', onData);
    child.once('exit', onExit);
    child.once('error', settle);
  });
}

async function shutDown(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = new Promise<boolean>((resolve) => {
    child.once('exit', () => resolve(true));
  });
  const within = (ms: number) =>
    Promise.race([exited, new Promise<boolean>((resolve) => setTimeout(resolve, ms, false).unref())]);
  child.kill('SIGINT'); // fast shutdown
  if (await within(20_000)) return;
  child.kill('SIGQUIT'); // immediate shutdown
  if (await within(5_000)) return;
  child.kill('SIGKILL');
  await exited;
}

function spawnOptions({ workDir, account }: Layout) {
  return {
    // The clone (the current folder) may be out of the postgres account's reach.
    cwd: workDir,
    env: { ...process.env, LC_ALL: 'C' },
    ...(account ? { uid: account.uid, gid: account.gid } : {}),
  };
}

function explain(error: Error & { code?: unknown; killed?: boolean }, program: string, log = ''): string {
  if (error.code === 'EACCES')
    return `the ${process.getuid?.() === 0 ? 'postgres' : 'current'} account cannot run ${program}: a folder on its path is private (is TMPDIR=${tmpdir()} inside a private folder?)`;
  if (error.code === 'ENOENT') return `${program} not found`;
  const what =
    typeof error.code === 'number'
      ? `exit code ${error.code}`
      : error.killed
        ? 'timed out'
        : error.message.split('\n')[0];
  const lines = log.trim().split('\n').slice(-6).join('\n    ');
  return lines ? `${what}\n    ${lines}` : `${what}`;
}
