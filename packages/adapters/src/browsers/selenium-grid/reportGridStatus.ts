import type { Logger } from '@browserdeck/domain';
import type { GridClient } from './GridClient.ts';
import { toGridProviderError } from './toGridProviderError.ts';

/** Says in the log whether the Grid answers (it is not required to: a Grid may come up later). */
export async function reportGridStatus(
  grid: Pick<GridClient, 'url' | 'headers' | 'baseUrl'>,
  logger: Logger,
  timeoutMs: number,
): Promise<void> {
  try {
    const response = await fetch(grid.url('status'), {
      headers: { accept: 'application/json', ...grid.headers },
      signal: AbortSignal.timeout(timeoutMs),
    });
    const body = (await response.json().catch(() => null)) as { value?: { ready?: unknown } } | null;
    logger.info?.(
      { grid: grid.baseUrl.origin, status: response.status, ready: body?.value?.ready === true },
      'Selenium Grid answered',
    );
  } catch (error) {
    logger.warn(
      {
        grid: grid.baseUrl.origin,
        error: String(toGridProviderError(error, { operation: 'read its status', now: new Date() }).message),
      },
      'Selenium Grid does not answer yet; sessions fail with provider_unavailable until it does',
    );
  }
}
