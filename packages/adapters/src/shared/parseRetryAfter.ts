/** Seconds to wait when Browserbase sends no usable `Retry-After`. */
export const DEFAULT_RETRY_AFTER_SEC = 5;

/**
 * Reads an HTTP `Retry-After` value, either delay-seconds (`"17"`) or an HTTP date, as whole
 * seconds from `now` (at least 1). Absent or unreadable values give `fallbackSec`.
 */
export function parseRetryAfter(
  value: string | null | undefined,
  now: Date,
  fallbackSec: number = DEFAULT_RETRY_AFTER_SEC,
): number {
  const text = value?.trim();
  if (!text) return fallbackSec;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.max(1, Math.ceil(Number(text)));
  // An HTTP date names its day and month; `Date.parse` alone would read "-3" as a year.
  const at = /[a-z]/i.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(at)) return fallbackSec;
  return Math.max(1, Math.ceil((at - now.getTime()) / 1000));
}
