import { chmod, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMikroOrm } from './createMikroOrm.ts';
import { migrateToLatest } from './migrateToLatest.ts';

const modeOf = async (path: string) => (await stat(path)).mode & 0o777;

/** Every file in `dir` with its mode, e.g. `{ 'db.sqlite': '600' }`. */
async function modes(dir: string): Promise<Record<string, string>> {
  const names = (await readdir(dir)).sort();
  return Object.fromEntries(
    await Promise.all(names.map(async (n) => [n, (await modeOf(join(dir, n))).toString(8)])),
  );
}

describe('createMikroOrm on a SQLite file: private files', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'browserdeck-sqlite-modes-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('creates the folder 0700 and the database, its -wal and -shm 0600 whatever the umask allows', async () => {
    const dir = join(root, 'data');
    const orm = await createMikroOrm({ databaseUrl: `sqlite:${join(dir, 'db.sqlite')}` });
    try {
      await migrateToLatest(orm);
      expect(await modeOf(dir)).toBe(0o700);
      expect(await modes(dir)).toEqual({
        'db.sqlite': '600',
        'db.sqlite-shm': '600',
        'db.sqlite-wal': '600',
      });
    } finally {
      await orm.close(true);
    }
  });

  it('narrows a database and companions left with 0644 to 0600, and SQLite recreates them 0600', async () => {
    const file = join(root, 'db.sqlite');
    const first = await createMikroOrm({ databaseUrl: `sqlite:${file}` });
    await migrateToLatest(first);
    for (const name of ['db.sqlite', 'db.sqlite-wal', 'db.sqlite-shm']) await chmod(join(root, name), 0o644);
    const second = await createMikroOrm({ databaseUrl: `sqlite:${file}` });
    try {
      await second.em.getConnection().execute('select count(*) from users');
      expect(await modes(root)).toEqual({
        'db.sqlite': '600',
        'db.sqlite-shm': '600',
        'db.sqlite-wal': '600',
      });
    } finally {
      await second.close(true);
      await first.close(true);
    }
    // With every connection closed SQLite removes the WAL; the next one is created with the file's mode.
    const third = await createMikroOrm({ databaseUrl: `sqlite:${file}` });
    try {
      await migrateToLatest(third);
      expect(await modes(root)).toEqual({
        'db.sqlite': '600',
        'db.sqlite-shm': '600',
        'db.sqlite-wal': '600',
      });
    } finally {
      await third.close(true);
    }
  });
});
