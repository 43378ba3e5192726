import {
  ProviderError,
  type ProviderSessionSnapshot,
  SESSION_STATUSES,
  type SessionStatus,
} from '@browserdeck/domain';

/**
 * Reads a Browserbase session object (`POST /v1/sessions`, `GET /v1/sessions/{id}`, `POST
 * /v1/sessions/{id}`) into a snapshot. `connectUrl` is empty when Browserbase sent none (the update
 * answer never carries it), and `proxyBytes` Browserbase's own count when it sent one. A body of
 * the wrong shape is a `provider_error`: we never store guesses.
 */
export function toProviderSnapshot(body: unknown): ProviderSessionSnapshot {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw malformed('is not a session object');
  const session = body as Record<string, unknown>;
  const id = requiredString(session, 'id');
  const status = session.status;
  if (typeof status !== 'string' || !(SESSION_STATUSES as readonly string[]).includes(status)) {
    throw malformed('has an unknown status');
  }
  const createdAt = optionalDate(session, 'createdAt');
  const startedAt = optionalDate(session, 'startedAt') ?? createdAt;
  if (!startedAt) throw malformed('has no startedAt');
  return {
    providerSessionId: id,
    providerProjectId: requiredString(session, 'projectId'),
    status: status as SessionStatus,
    connectUrl: optionalString(session, 'connectUrl') ?? '',
    seleniumRemoteUrl: optionalString(session, 'seleniumRemoteUrl') ?? null,
    startedAt,
    endedAt: optionalDate(session, 'endedAt'),
    expiresAt: optionalDate(session, 'expiresAt'),
    ...proxyBytesOf(session),
  };
}

/** Browserbase's own count of the session's proxy bytes, when it sends one. */
function proxyBytesOf(session: Record<string, unknown>): { proxyBytes?: number } {
  const value = session.proxyBytes;
  if (value === undefined || value === null) return {};
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
    throw malformed('has a proxyBytes that is not a count of bytes');
  return { proxyBytes: value };
}

function requiredString(session: Record<string, unknown>, field: string): string {
  const value = optionalString(session, field);
  if (!value) throw malformed(`has no ${field}`);
  return value;
}

function optionalString(session: Record<string, unknown>, field: string): string | null {
  const value = session[field];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw malformed(`has a ${field} that is not a string`);
  return value;
}

function optionalDate(session: Record<string, unknown>, field: string): Date | null {
  const text = optionalString(session, field);
  if (text === null) return null;
  const date = new Date(text);
  if (Number.isNaN(date.getTime())) throw malformed(`has an unreadable ${field}`);
  return date;
}

function malformed(what: string): ProviderError {
  return new ProviderError('provider_error', `Browserbase sent a session that ${what}.`);
}
