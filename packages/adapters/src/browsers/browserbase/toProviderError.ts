import { ProviderError } from '@browserdeck/domain';
import { parseRetryAfter } from '../../shared/parseRetryAfter.ts';
import type { BrowserbaseSdk } from './loadBrowserbaseSdk.ts';
import { DeadlineExceededError } from './withDeadline.ts';

/** What `toProviderError` needs besides the error. */
export interface ProviderErrorContext {
  /** What we asked Browserbase to do, for the detail: `create a session`, `read session logs`, … */
  readonly operation: string;
  /** The API key, so no detail ever repeats it, even when Browserbase echoes it. */
  readonly apiKey: string;
  readonly now: Date;
  /** The loaded SDK, for its error classes. */
  readonly sdk: BrowserbaseSdk;
}

const MAX_DETAIL_CHARS = 300;

/**
 * Maps whatever a Browserbase SDK call threw to a `ProviderError` (http-api.md §2): 429 →
 * `provider_rate_limited` with `Retry-After` in seconds, any other status → `provider_error`,
 * our own timeout → `provider_timeout`, refused/reset/DNS → `provider_unavailable`, and a body we
 * cannot read → `provider_error`. Details name the status, never the API key.
 */
export function toProviderError(error: unknown, context: ProviderErrorContext): ProviderError {
  if (error instanceof ProviderError) return error;
  const { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } = context.sdk;
  const options = { cause: error };
  // Only our deadline aborts a request, so an abort is a timeout too.
  if (
    error instanceof DeadlineExceededError ||
    error instanceof APIConnectionTimeoutError ||
    error instanceof APIUserAbortError
  ) {
    return new ProviderError(
      'provider_timeout',
      `Browserbase did not answer in time (${context.operation}).`,
      options,
    );
  }
  if (error instanceof APIConnectionError) {
    return new ProviderError(
      'provider_unavailable',
      `Browserbase could not be reached (${context.operation}).`,
      options,
    );
  }
  if (error instanceof APIError && typeof error.status === 'number') {
    const said = errorMessage(error.error, context.apiKey);
    if (error.status === 429) {
      const retryAfterSec = parseRetryAfter(header(error.headers, 'retry-after'), context.now);
      const reason = said ?? 'too many sessions or requests';
      return new ProviderError(
        'provider_rate_limited',
        `Browserbase refused to ${context.operation} (429): ${reason}`,
        { ...options, retryAfterSec },
      );
    }
    return new ProviderError(
      'provider_error',
      `Browserbase answered ${error.status} to ${context.operation}${said ? `: ${said}` : '.'}`,
      options,
    );
  }
  return new ProviderError(
    'provider_error',
    `Browserbase sent a response we could not read (${context.operation}).`,
    options,
  );
}

/** Browserbase's own words from an error body (`{ statusCode, error, message }`), redacted and cut short. */
function errorMessage(body: unknown, apiKey: string): string | undefined {
  let text: string | undefined;
  if (typeof body === 'string') text = body;
  else if (body && typeof body === 'object') {
    const { message, error } = body as { message?: unknown; error?: unknown };
    if (typeof message === 'string') text = message;
    else if (typeof error === 'string') text = error;
  }
  text = text?.trim();
  if (!text) return undefined;
  if (apiKey) text = text.replaceAll(apiKey, '[redacted]');
  return text.length > MAX_DETAIL_CHARS ? `${text.slice(0, MAX_DETAIL_CHARS)}…` : text;
}

function header(headers: unknown, name: string): string | undefined {
  if (!headers || typeof headers !== 'object') return undefined;
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === name && typeof value === 'string') return value;
  }
  return undefined;
}
