import { RateLimitedError, UnavailableError } from '@browserdeck/domain';
import { GoTrueRequestError } from './GoTrueRequestError.ts';

/** Where GoTrue is and how to reach it. */
export interface GoTrueHttpOptions {
  /** The project URL (`SUPABASE_URL`), without `/auth/v1`. */
  url: string;
  /** The project's anon (publishable) key, sent as `apikey`. */
  anonKey: string;
  /** Per-request deadline; default 10 s. */
  timeoutMs?: number;
}

/** GoTrue's current error body shape: `{ code, message }`. */
export const GOTRUE_API_VERSION = '2024-01-01';
const DEFAULT_RETRY_AFTER_SEC = 60;

/**
 * A stateless JSON client for GoTrue's REST endpoints. Holds no session, refreshes nothing: every
 * user's tokens travel with the call. Failures: unreachable, timed out or any 5xx →
 * `identity_unavailable`; 429 → `rate_limited`; other 4xx → `GoTrueRequestError`.
 */
export class GoTrueHttp {
  private readonly base: string;
  private readonly anonKey: string;
  private readonly timeoutMs: number;

  constructor(options: GoTrueHttpOptions) {
    this.base = `${options.url.replace(/\/+$/, '')}/auth/v1`;
    this.anonKey = options.anonKey;
    this.timeoutMs = options.timeoutMs ?? 10_000;
  }

  /** POSTs `body` to `path` (relative to `/auth/v1`); resolves with the parsed answer (null when empty). */
  async post(path: string, body: unknown, bearer?: string): Promise<unknown> {
    const headers: Record<string, string> = {
      apikey: this.anonKey,
      'Content-Type': 'application/json',
      Accept: 'application/json',
      'X-Supabase-Api-Version': GOTRUE_API_VERSION,
    };
    if (bearer !== undefined) headers.Authorization = `Bearer ${bearer}`;
    let response: Response;
    let text: string;
    try {
      response = await fetch(`${this.base}${path}`, {
        method: 'POST',
        headers,
        body: JSON.stringify(body ?? {}),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      text = await response.text();
    } catch (cause) {
      throw unavailable(cause);
    }
    const parsed = parseJson(text);
    if (response.status === 429) {
      throw new RateLimitedError(
        retryAfterSec(response.headers.get('retry-after')),
        'The identity provider is rate limiting these requests; retry later.',
      );
    }
    if (response.status >= 500) throw unavailable(new Error(`GoTrue answered ${response.status}`));
    if (response.status >= 400) throw GoTrueRequestError.fromBody(response.status, parsed);
    if (parsed === undefined && text.trim() !== '') {
      throw unavailable(new Error(`GoTrue answered ${response.status} with a body that is not JSON`));
    }
    return parsed ?? null;
  }
}

function unavailable(cause: unknown): UnavailableError {
  return new UnavailableError('identity_unavailable', 'The identity provider could not be reached.', {
    cause,
  });
}

function parseJson(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function retryAfterSec(header: string | null): number {
  if (header === null) return DEFAULT_RETRY_AFTER_SEC;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds);
  const at = Date.parse(header);
  return Number.isNaN(at) ? DEFAULT_RETRY_AFTER_SEC : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}
