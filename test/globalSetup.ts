import type { TestProject } from 'vitest/node';
import type {} from './postgres.ts';
import { startPostgresServer } from './postgresServer.ts';

/**
 * Shared set-up for integration tests: a PostgreSQL server (`DATABASE_URL` when it is a
 * `postgres://` URL, else a throwaway embedded one) whose admin URL tests read with
 * `inject('postgresAdminUrl')` — see `createTestDatabase` in `test/postgres.ts`.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await startPostgresServer();
  project.provide('postgresAdminUrl', server.adminUrl);
  return () => server.stop();
}
