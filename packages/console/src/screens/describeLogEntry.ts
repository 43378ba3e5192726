import type { LogEntry } from '../api/types.ts';

/** An object's fields, or `undefined` for anything else. */
function fields(value: unknown): Record<string, unknown> | undefined {
  return value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** A string or number field as text; nothing for anything else. */
function text(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
}

/**
 * What a log entry is about, for the logs table's "URL or status" column. Entries are CDP events in
 * Browserbase's shape (http-api.md §5): the event's params under `request.params`, a command's or a
 * `Network.responseReceived`'s result under `response.result`. So: a response's status and URL
 * (`response.result.response`), else a request's method and URL (`request.params.request`), else the
 * URL a command went to (`Page.navigate`), else a failed load's error text; empty for the rest.
 */
export function describeLogEntry(entry: LogEntry): string {
  const response = fields(fields(fields(entry.response)?.result)?.response);
  if (response) return `${text(response.status)} ${text(response.url)}`.trim();
  const params = fields(fields(entry.request)?.params);
  const request = fields(params?.request);
  if (request) return `${text(request.method)} ${text(request.url)}`.trim();
  return text(params?.url) || text(params?.errorText);
}
