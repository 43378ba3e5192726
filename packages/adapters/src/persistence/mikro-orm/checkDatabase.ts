import { UnavailableError } from '@browserdeck/domain';
import type { BrowserdeckOrm } from './BrowserdeckOrm.ts';
import { toDatabaseError } from './toDatabaseError.ts';

/**
 * Readiness probe: runs `select 1`. Resolves when the database answers within `timeoutMs`
 * (default 2 s); otherwise throws `UnavailableError('database_unavailable')` with the cause.
 */
export async function checkDatabase(
  orm: BrowserdeckOrm,
  options: { timeoutMs?: number } = {},
): Promise<void> {
  const timeoutMs = options.timeoutMs ?? 2_000;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`select 1 did not answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    await Promise.race([orm.em.getConnection().execute('select 1'), timeout]);
  } catch (error) {
    throw (
      toDatabaseError(error) ??
      new UnavailableError('database_unavailable', 'The database is not answering; try again shortly.', {
        cause: error,
      })
    );
  } finally {
    clearTimeout(timer);
  }
}
