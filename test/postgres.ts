import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { createDatabase, dropDatabase } from './postgresServer.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Superuser URL of the PostgreSQL server `test/globalSetup.ts` provides. */
    postgresAdminUrl: string;
  }
}

/** A database of one's own, and how to get rid of it. */
export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/**
 * A fresh, empty, uniquely named PostgreSQL database on the server of the `int` test project, so
 * test files can run in parallel. Drop it in `afterAll`.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = inject('postgresAdminUrl');
  if (!adminUrl)
    throw new Error('No PostgreSQL server: run this test in the `int` project (test/globalSetup.ts).');
  const name = `browserdeck_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const url = await createDatabase(adminUrl, name);
  return { url, drop: () => dropDatabase(adminUrl, name) };
}

/** A `sqlite:` URL of a file in a fresh temporary folder, and how to delete it. */
export function createSqliteTestUrl(): TestDatabase {
  const dir = mkdtempSync(join(tmpdir(), 'browserdeck-sqlite-'));
  return {
    url: `sqlite:${join(dir, 'test.db')}`,
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  };
}
