import { ProviderError, type SessionLogEntry } from '@browserdeck/domain';

type LogRequest = NonNullable<SessionLogEntry['request']>;
type LogResponse = NonNullable<SessionLogEntry['response']>;

/**
 * Maps Browserbase's `GET /v1/sessions/{id}/logs` answer (an array of CDP events) to log entries,
 * oldest first. Fields are kept as Browserbase sent them (`sessionId` is dropped: it is ours to
 * know). An item without a `method` is skipped; an answer that is not an array is a `provider_error`.
 */
export function toSessionLogEntries(body: unknown): SessionLogEntry[] {
  if (!Array.isArray(body)) {
    throw new ProviderError('provider_error', 'Browserbase sent session logs that are not a list.');
  }
  const entries: SessionLogEntry[] = [];
  for (const item of body) {
    const entry = toEntry(item);
    if (entry) entries.push(entry);
  }
  // A stable sort: events with the same timestamp keep Browserbase's order.
  return entries.sort((a, b) => a.timestamp - b.timestamp);
}

function toEntry(item: unknown): SessionLogEntry | null {
  if (!isRecord(item) || typeof item.method !== 'string') return null;
  const request = isRecord(item.request) ? toRequest(item.request) : undefined;
  const response = isRecord(item.response) ? toResponse(item.response) : undefined;
  const timestamp = numberOr(item.timestamp) ?? request?.timestamp ?? response?.timestamp ?? 0;
  return {
    timestamp,
    method: item.method,
    pageId: numberOr(item.pageId) ?? 0,
    ...(typeof item.frameId === 'string' ? { frameId: item.frameId } : {}),
    ...(typeof item.loaderId === 'string' ? { loaderId: item.loaderId } : {}),
    ...(request ? { request } : {}),
    ...(response ? { response } : {}),
  };
}

function toRequest(raw: Record<string, unknown>): LogRequest {
  const request: LogRequest = {};
  const timestamp = numberOr(raw.timestamp);
  if (timestamp !== undefined) request.timestamp = timestamp;
  if (isRecord(raw.params)) request.params = raw.params;
  if (typeof raw.rawBody === 'string') request.rawBody = raw.rawBody;
  return request;
}

function toResponse(raw: Record<string, unknown>): LogResponse {
  const response: LogResponse = {};
  const timestamp = numberOr(raw.timestamp);
  if (timestamp !== undefined) response.timestamp = timestamp;
  if (isRecord(raw.result)) response.result = raw.result;
  if (typeof raw.rawBody === 'string') response.rawBody = raw.rawBody;
  return response;
}

function numberOr(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
