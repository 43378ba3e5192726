import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { npmScript } from './npmScript.ts';
import { createTestDatabase, type TestDatabase } from './postgres.ts';
import { type ServerProcess, startServerProcess } from './serverProcess.ts';

/**
 * docs/deploy.md, "Backup and restore", run as written: `npm run backup -- <folder>` while the
 * server runs, the server stopped, its data folder wiped, the restore commands, the server started
 * again: the same account signs in with the same id, its earlier access token still works (the JWT
 * key came back) and an agent's sealed `envVars` open (the secret key came back).
 */

/** The restore of the data folder (and a SQLite database in it), with the server stopped. */
const RESTORE_DATA_DIR = [
  'rm -rf "$DATA_DIR"',
  'mkdir -m 700 "$DATA_DIR"',
  'cp -a "$BACKUP"/. "$DATA_DIR"/',
  'rm -f "$DATA_DIR/backup.json" "$DATA_DIR/browserdeck.pgdump"',
].join(' && ');
/** PostgreSQL: the dump into an empty database, then the data folder as above. */
const RESTORE_POSTGRES =
  'pg_restore --no-owner --single-transaction --exit-on-error --dbname="$DATABASE_URL" "$BACKUP/browserdeck.pgdump"';

const dirs: string[] = [];
const databases: TestDatabase[] = [];
const running: ServerProcess[] = [];
afterAll(async () => {
  for (const server of running) server.child.kill('SIGKILL');
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  for (const db of databases) await db.drop();
});
const scratch = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), `browserdeck-${prefix}-`));
  dirs.push(dir);
  return dir;
};

async function start(env: Record<string, string>): Promise<ServerProcess> {
  const server = await startServerProcess({ LOCAL_WARM_BROWSERS: '0', ...env }, 60_000);
  running.push(server);
  return server;
}

async function call<T>(url: string, method: string, path: string, body?: unknown, token?: string) {
  const answer = await fetch(`${url}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: answer.status, body: (await answer.json()) as T };
}

const who = { email: 'backup@example.com', password: 'correct horse battery staple' };
interface SignedIn {
  access_token: string;
  user: { id: string };
}

/** An account with a project and an agent whose envVars are sealed under the secret key. */
async function seed(url: string) {
  const signedUp = await call<{ user: { id: string } }>(url, 'POST', '/v1/auth/signup', who);
  expect(signedUp.status).toBe(201);
  const signedIn = await call<SignedIn>(url, 'POST', '/v1/auth/signin', who);
  expect(signedIn.status).toBe(200);
  const token = signedIn.body.access_token;
  const synced = await call<{ project: { id: string } }>(url, 'POST', '/v1/auth/sync', {}, token);
  const agent = await call<{ id: string }>(
    url,
    'POST',
    `/v1/local/projects/${synced.body.project.id}/agents`,
    { name: 'nightly', envVars: { API_TOKEN: 'sealed-at-rest' } },
    token,
  );
  expect(agent.status).toBe(201);
  return { userId: signedUp.body.user.id, token, projectId: synced.body.project.id, agentId: agent.body.id };
}

/** After the restore: same id at sign-in, the old token accepted, the agent's env readable. */
async function expectRestored(url: string, seeded: Awaited<ReturnType<typeof seed>>) {
  const signedIn = await call<SignedIn>(url, 'POST', '/v1/auth/signin', who);
  expect(signedIn.status).toBe(200);
  expect(signedIn.body.user.id).toBe(seeded.userId);
  const me = await call<{ user: { id: string } }>(url, 'GET', '/v1/auth/me', undefined, seeded.token);
  expect(me).toEqual({ status: 200, body: { user: { id: seeded.userId, email: who.email } } });
  const agent = await call<{ envVars: Record<string, string> }>(
    url,
    'GET',
    `/v1/local/projects/${seeded.projectId}/agents/${seeded.agentId}`,
    undefined,
    signedIn.body.access_token,
  );
  expect(agent.status).toBe(200);
  expect(agent.body.envVars).toEqual({ API_TOKEN: 'sealed-at-rest' });
}

/** Files of the data folder whose content must come back byte for byte. */
const keptFiles = ['secret.key', 'jwt-ed25519.pem', 'instance-id', 'contexts/p/c/Local State'];

function plantContext(dataDir: string): void {
  // A context profile's folder, as the local provider keeps it (DATA_DIR/contexts/<project>/<context>).
  mkdirSync(join(dataDir, 'contexts/p/c'), { recursive: true, mode: 0o700 });
  writeFileSync(join(dataDir, 'contexts/p/c/Local State'), '{"profile":"kept"}', { mode: 0o600 });
}

const snapshot = (dataDir: string, names: readonly string[]) =>
  Object.fromEntries(names.map((n) => [n, readFileSync(join(dataDir, n), 'utf8')]));

describe('backup and restore, as docs/deploy.md says', () => {
  it('SQLite: an online backup while the server runs, restored into a wiped data folder', async () => {
    const dataDir = scratch('backup-data');
    const backupDir = join(scratch('backup-dest'), 'backup-1');
    const env = { DATA_DIR: dataDir };
    const first = await start(env);
    const seeded = await seed(first.url);
    plantContext(dataDir);
    // The writes may still be in the WAL only: the snapshot has to carry them.
    expect(statSync(join(dataDir, 'browserdeck.sqlite-wal')).size).toBeGreaterThan(0);
    const before = snapshot(dataDir, keptFiles);

    const made = await npmScript(['run', '-s', 'backup', '--', backupDir], env);
    expect(made.code, made.stderr).toBe(0);
    expect(statSync(backupDir).mode & 0o777).toBe(0o700);
    const manifest = JSON.parse(readFileSync(join(backupDir, 'backup.json'), 'utf8'));
    expect(manifest).toMatchObject({ database: 'sqlite', databaseFile: 'browserdeck.sqlite', dataDir });
    expect(manifest.lastMigration).toMatch(/^Migration\d+_/);
    expect(() => statSync(join(backupDir, 'browserdeck.sqlite-wal'))).toThrow();
    expect(() => statSync(join(backupDir, 'runs'))).toThrow();
    expect(await first.stop()).toBe(0);

    rmSync(dataDir, { recursive: true, force: true });
    execFileSync('sh', ['-c', RESTORE_DATA_DIR], {
      env: { PATH: process.env.PATH, DATA_DIR: dataDir, BACKUP: backupDir },
    });
    expect(snapshot(dataDir, keptFiles)).toEqual(before);

    const second = await start(env);
    await expectRestored(second.url, seeded);
    expect(await second.stop()).toBe(0);
  }, 180_000);

  it('PostgreSQL: pg_dump -Fc while the server runs, pg_restore into an empty database', async (context) => {
    try {
      execFileSync('pg_dump', ['--version'], { stdio: 'ignore' });
      execFileSync('pg_restore', ['--version'], { stdio: 'ignore' });
    } catch {
      context.skip('pg_dump and pg_restore are not installed');
    }
    const source = await createTestDatabase();
    const target = await createTestDatabase();
    databases.push(source, target);
    // Production-style: the keys come from the environment (npm run keys), not the data folder.
    const keys = parseEnv((await npmScript(['run', '-s', 'keys'])).stdout) as Record<string, string>;
    const dataDir = scratch('backup-pg-data');
    const backupDir = join(scratch('backup-pg-dest'), 'backup-1');
    const env = { DATA_DIR: dataDir, DATABASE_URL: source.url, ...keys };
    const first = await start(env);
    const seeded = await seed(first.url);
    plantContext(dataDir);
    const before = snapshot(dataDir, ['instance-id', 'contexts/p/c/Local State']);

    const made = await npmScript(['run', '-s', 'backup', '--', backupDir], env);
    expect(made.code, made.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(backupDir, 'backup.json'), 'utf8'))).toMatchObject({
      database: 'postgresql',
      databaseFile: 'browserdeck.pgdump',
    });
    expect(await first.stop()).toBe(0);

    rmSync(dataDir, { recursive: true, force: true });
    const restoreEnv = {
      PATH: process.env.PATH,
      DATA_DIR: dataDir,
      BACKUP: backupDir,
      DATABASE_URL: target.url,
    };
    execFileSync('sh', ['-c', `${RESTORE_POSTGRES} && ${RESTORE_DATA_DIR}`], { env: restoreEnv });
    expect(snapshot(dataDir, ['instance-id', 'contexts/p/c/Local State'])).toEqual(before);

    const second = await start({ ...env, DATABASE_URL: target.url });
    await expectRestored(second.url, seeded);
    expect(await second.stop()).toBe(0);
  }, 180_000);
});
