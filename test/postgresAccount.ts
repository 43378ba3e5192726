import { execFile } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The account a test PostgreSQL server runs as. */
export interface PostgresAccount {
  uid: number;
  gid: number;
}

/**
 * PostgreSQL refuses to run as root. As root, this is the `postgres` system account, created (no
 * home, no login shell) when the machine has none; otherwise undefined: the server runs as the
 * current user.
 */
export async function postgresAccount(): Promise<PostgresAccount | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  const existing = await lookUp();
  if (existing) return existing;
  const useradd = 'useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin';
  try {
    // Several test runs may start at once: check and create under one lock file (util-linux flock),
    // the same one the local browser provider takes for its own account.
    await run('flock', [
      join(tmpdir(), 'browserdeck-useradd.lock'),
      'sh',
      '-c',
      `id -u postgres >/dev/null 2>&1 || if getent group postgres >/dev/null; then ${useradd} -g postgres postgres; else ${useradd} --user-group postgres; fi`,
    ]);
  } catch (error) {
    throw new Error(`could not create the postgres system user: ${firstLine(error)}`);
  }
  const created = await lookUp();
  if (!created) throw new Error('the postgres system user does not exist after useradd');
  return created;
}

async function lookUp(): Promise<PostgresAccount | undefined> {
  try {
    const uid = Number((await run('id', ['-u', 'postgres'])).stdout.trim());
    const gid = Number((await run('id', ['-g', 'postgres'])).stdout.trim());
    return uid > 0 && Number.isInteger(gid) ? { uid, gid } : undefined;
  } catch {
    return undefined;
  }
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n').find((line) => line.trim() !== '') ?? text;
}
