import { ProviderError } from '@browserdeck/domain';
import { describe, expect, it } from 'vitest';
import { GridHttpError, gridHttpError } from './GridHttpError.ts';
import { NewSessionDeadlineError } from './NewSessionDeadlineError.ts';
import { GRID_FULL_RETRY_AFTER_SEC, toGridProviderError } from './toGridProviderError.ts';

const now = new Date('2026-11-26T12:00:00Z');
const map = (error: unknown) => toGridProviderError(error, { operation: 'create a session', now });
const w3c = (status: number, error: string, message: string, retryAfter: string | null = null) =>
  gridHttpError(status, { value: { error, message, stacktrace: '' } }, retryAfter);
const fetchFailed = (code: string) =>
  new TypeError('fetch failed', { cause: Object.assign(new Error(code), { code }) });

describe('toGridProviderError', () => {
  it('a Grid that cannot be reached is provider_unavailable (503), naming the network error', () => {
    for (const code of ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ECONNRESET', 'UND_ERR_SOCKET']) {
      const error = map(fetchFailed(code));
      expect(error).toBeInstanceOf(ProviderError);
      expect(error.code).toBe('provider_unavailable');
      expect(error.message).toContain(code);
    }
    const aggregate = new TypeError('fetch failed', {
      cause: Object.assign(new AggregateError([Object.assign(new Error('x'), { code: 'ECONNREFUSED' })]), {}),
    });
    expect(map(aggregate).message).toContain('ECONNREFUSED');
    expect(map(w3c(503, 'unknown error', 'proxy: no upstream')).code).toBe('provider_unavailable');
    expect(map(w3c(502, 'unknown error', 'bad gateway')).code).toBe('provider_unavailable');
  });

  it('our deadlines and a gateway timeout are provider_timeout (504)', () => {
    expect(map(new NewSessionDeadlineError(60_000)).code).toBe('provider_timeout');
    expect(map(new DOMException('The operation was aborted due to timeout', 'TimeoutError')).code).toBe(
      'provider_timeout',
    );
    expect(map(fetchFailed('UND_ERR_HEADERS_TIMEOUT')).code).toBe('provider_timeout');
    expect(map(w3c(504, 'unknown error', 'gateway timeout')).code).toBe('provider_timeout');
  });

  it('a full Grid (its queue timed out or refused the request) is provider_rate_limited (429) with Retry-After', () => {
    const timedOut = map(
      w3c(
        500,
        'session not created',
        'Could not start a new session. New session request timed out \nHost info: x',
      ),
    );
    expect(timedOut.code).toBe('provider_rate_limited');
    expect(timedOut.retryAfterSec).toBe(GRID_FULL_RETRY_AFTER_SEC);
    expect(timedOut.message).toMatch(/no free browser slot.*New session request timed out$/);
    expect(timedOut.message).not.toContain('Host info');
    const rejected = map(w3c(500, 'session not created', 'Session request rejected: queue is full', '7'));
    expect(rejected).toMatchObject({ code: 'provider_rate_limited', retryAfterSec: 7 });
    expect(map(w3c(429, 'unknown error', 'slow down', '3'))).toMatchObject({
      code: 'provider_rate_limited',
      retryAfterSec: 3,
    });
  });

  it('anything else is provider_error (502), with the Grid’s first line but never its credentials', () => {
    const crashed = map(
      w3c(500, 'session not created', 'Could not start a new session. Chrome instance exited.'),
    );
    expect(crashed.code).toBe('provider_error');
    expect(crashed.message).toContain('Chrome instance exited');
    const auth = map(w3c(401, 'unknown error', 'Bearer s3cr3t is not valid'));
    expect(auth.code).toBe('provider_error');
    expect(auth.message).toMatch(/credentials.*SELENIUM_GRID_HEADERS/);
    expect(auth.message).not.toContain('s3cr3t');
    expect(
      map(
        new GridHttpError({ status: 200, error: null, message: 'a body that is not JSON', retryAfter: null }),
      ).code,
    ).toBe('provider_error');
    expect(map(new Error('odd')).code).toBe('provider_error');
    const passed = new ProviderError('provider_timeout', 'kept');
    expect(map(passed)).toBe(passed);
  });
});
