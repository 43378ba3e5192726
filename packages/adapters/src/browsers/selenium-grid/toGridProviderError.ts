import { ProviderError } from '@browserdeck/domain';
import { parseRetryAfter } from '../../shared/parseRetryAfter.ts';
import { GridHttpError } from './GridHttpError.ts';
import { NewSessionDeadlineError } from './NewSessionDeadlineError.ts';

/** Seconds a client is told to wait when the Grid's queue had no free slot for it. */
export const GRID_FULL_RETRY_AFTER_SEC = 10;

/**
 * What a Grid says when its new-session queue gave up on a request (no node had a free slot within
 * its `--session-request-timeout`) or would not take it: a full Grid, not a broken one.
 */
const GRID_FULL =
  /new session request timed out|session request rejected|queue is full|could not add .* to the queue|no free slot/i;

/** Error codes `fetch` (undici) gives when the Grid's own answer took too long. */
const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/**
 * Maps what a Grid call threw to a `ProviderError` (http-api.md §2, §15): refused, reset, unknown
 * host or no route → `provider_unavailable` (503), as is a 502/503 from a proxy in front of it; our
 * deadline, the new-session deadline or a 504 → `provider_timeout` (504); a new session the Grid
 * could not place for lack of a free slot (its queue timed out or refused it) or a 429 →
 * `provider_rate_limited` (429, `Retry-After` passed on, else `GRID_FULL_RETRY_AFTER_SEC`); anything
 * else → `provider_error` (502). Details name the operation and the Grid's own first line, never the
 * configured headers.
 */
export function toGridProviderError(
  error: unknown,
  context: { operation: string; now: Date },
): ProviderError {
  if (error instanceof ProviderError) return error;
  const options = { cause: error };
  const { operation } = context;
  if (error instanceof NewSessionDeadlineError || isTimeout(error))
    return new ProviderError(
      'provider_timeout',
      `The Selenium Grid did not answer in time (${operation}).`,
      options,
    );
  if (error instanceof GridHttpError) {
    const said = error.gridMessage ? `: ${error.gridMessage}` : '.';
    if (
      error.status === 429 ||
      (error.error === 'session not created' && GRID_FULL.test(error.gridMessage ?? ''))
    )
      return new ProviderError(
        'provider_rate_limited',
        `The Selenium Grid has no free browser slot (${operation})${said}`,
        {
          ...options,
          retryAfterSec: parseRetryAfter(error.retryAfter, context.now, GRID_FULL_RETRY_AFTER_SEC),
        },
      );
    if (error.status === 502 || error.status === 503)
      return new ProviderError(
        'provider_unavailable',
        `The Selenium Grid is unavailable (${operation}, ${error.status})${said}`,
        options,
      );
    if (error.status === 504)
      return new ProviderError(
        'provider_timeout',
        `The Selenium Grid did not answer in time (${operation}, 504).`,
        options,
      );
    if (error.status === 401 || error.status === 403)
      return new ProviderError(
        'provider_error',
        `The Selenium Grid refused our credentials (${operation}, ${error.status}): check SELENIUM_GRID_HEADERS.`,
        options,
      );
    return new ProviderError(
      'provider_error',
      `The Selenium Grid answered ${error.status}${error.error ? ` (${error.error})` : ''} to ${operation}${said}`,
      options,
    );
  }
  if (error instanceof TypeError)
    return new ProviderError(
      'provider_unavailable',
      `The Selenium Grid could not be reached (${operation}${networkCode(error) ? `: ${networkCode(error)}` : ''}).`,
      options,
    );
  return new ProviderError('provider_error', `The Selenium Grid call failed (${operation}).`, options);
}

/** Our own deadline (`AbortSignal.timeout`) or undici's header/body timeouts. */
function isTimeout(error: unknown): boolean {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return true;
  const code = networkCode(error);
  return code !== undefined && TIMEOUT_CODES.has(code);
}

/** The system or undici code behind a `fetch failed` (ECONNREFUSED, ENOTFOUND, …), when there is one. */
function networkCode(error: unknown): string | undefined {
  let cause = (error as { cause?: unknown } | null)?.cause;
  for (let depth = 0; cause && depth < 3; depth++) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    const first = (cause as { errors?: unknown[] }).errors?.[0];
    cause = first ?? (cause as { cause?: unknown }).cause;
  }
  return undefined;
}
