import pg from 'pg';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../../test/postgres.ts';
import { PostgresRunChanges } from './PostgresRunChanges.ts';

const logger = pino({ level: 'silent' });

describe('PostgresRunChanges (postgresql)', () => {
  let database: TestDatabase;
  const opened: PostgresRunChanges[] = [];
  const open = async () => {
    const changes = await PostgresRunChanges.open({ connectionString: database.url }, logger);
    opened.push(changes);
    return changes;
  };

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    for (const changes of opened) await changes.close();
    await database?.drop();
  });

  it('wakes a reader on another instance by NOTIFY, with no timer to wake it', async () => {
    const [a, b] = [await open(), await open()];
    const hour = 3_600_000;
    const started = Date.now();
    const woken = b.next('run-1', hour);
    const other = b.next('run-2', hour).then(() => 'woken');
    a.notify('run-1');
    await woken;
    expect(Date.now() - started).toBeLessThan(hour);
    // Only the run that changed: the other reader still waits.
    expect(
      await Promise.race([other, new Promise((resolve) => setTimeout(() => resolve('waiting'), 300))]),
    ).toBe('waiting');
  });

  it('wakes its own readers at once, and sends what changed in one turn together', async () => {
    const [a, b] = [await open(), await open()];
    const here = a.next('run-3', 3_600_000);
    const there = Promise.all(['run-3', 'run-4', 'run-5'].map((id) => b.next(id, 3_600_000)));
    for (const id of ['run-3', 'run-4', 'run-5']) a.notify(id);
    await here;
    await there;
  });

  it('listens again once its connection is lost', async () => {
    const [a, b] = [await open(), await open()];
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    const { rowCount } = await admin.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'browserdeck-run-changes' AND datname = current_database()",
    );
    await admin.end();
    expect(rowCount).toBeGreaterThanOrEqual(2);
    // Until it listens again, a notification may be missed: notify until the reader wakes.
    const woken = b.next('run-6', 3_600_000);
    let done = false;
    void woken.then(() => {
      done = true;
    });
    while (!done) {
      a.notify('run-6');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await woken;
  });
});
