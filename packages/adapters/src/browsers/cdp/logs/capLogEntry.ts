import type { SessionLogEntry } from '@browserdeck/domain';

/** A log entry within its size limit, and its size as JSON bytes. */
export interface CappedLogEntry {
  readonly entry: SessionLogEntry;
  readonly bytes: number;
}

/** Most items kept of one array; the rest is replaced by one marker item. */
const MAX_ARRAY_ITEMS = 100;
/** Deeper values are replaced by a marker. */
const MAX_DEPTH = 12;
/** The shortest a string is cut to before giving up on keeping the entry's shape. */
const MIN_STRING_CHARS = 64;

/**
 * Cuts a log entry to at most `maxBytes` of JSON (http-api.md §5: an entry is at most 16 KiB). Strings
 * longer than a limit are cut with a marker saying how many characters were dropped, long arrays keep
 * their first items and say how many went, and deep nesting is cut. The limit on strings halves until
 * the entry fits; an entry that still does not (thousands of keys) keeps a JSON preview of its
 * `request`/`response` instead, so the bound always holds. An entry that fits is returned as it is.
 */
export function capLogEntry(entry: SessionLogEntry, maxBytes: number): CappedLogEntry {
  let stringLimit = maxBytes;
  let capped = entry;
  for (;;) {
    const bytes = jsonBytes(capped);
    if (bytes <= maxBytes) return { entry: capped, bytes };
    if (stringLimit < MIN_STRING_CHARS) break;
    capped = shrink(entry, stringLimit, 0) as SessionLogEntry;
    stringLimit = Math.floor(stringLimit / 2);
  }
  return preview(entry, jsonBytes(capped), maxBytes);
}

function shrink(value: unknown, stringLimit: number, depth: number): unknown {
  if (typeof value === 'string') return cutString(value, stringLimit);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return '…[nested value cut]';
  if (Array.isArray(value)) {
    const kept = value.slice(0, MAX_ARRAY_ITEMS).map((item) => shrink(item, stringLimit, depth + 1));
    if (value.length > MAX_ARRAY_ITEMS) kept.push(`…[${value.length - MAX_ARRAY_ITEMS} more items cut]`);
    return kept;
  }
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = shrink(item, stringLimit, depth + 1);
  return out;
}

function cutString(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit)}…[${text.length - limit} characters cut]`;
}

/**
 * The last resort: the entry's header fields and the start of the JSON text of what it carried, cut
 * shorter until it fits (a character takes up to 3 bytes, an escaped quote 2).
 */
function preview(entry: SessionLogEntry, bytes: number, maxBytes: number): CappedLogEntry {
  const { request, response, ...header } = entry;
  const carried = JSON.stringify(request ?? response ?? null);
  for (let room = Math.floor(maxBytes / 4); ; room = Math.floor(room / 2)) {
    const params = {
      cut: `entry of ${bytes} bytes cut to its first ${room} characters`,
      preview: carried.slice(0, room),
    };
    const capped: SessionLogEntry = response
      ? { ...header, response: { timestamp: response.timestamp, result: params } }
      : { ...header, request: { timestamp: request?.timestamp, params } };
    const cappedBytes = jsonBytes(capped);
    if (cappedBytes <= maxBytes || room === 0) return { entry: capped, bytes: cappedBytes };
  }
}

function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value));
}
