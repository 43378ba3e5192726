const two = (n: number) => (n < 10 ? `0${n}` : `${n}`);
const three = (n: number) => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : `${n}`);

/** How many instants keep their text; past this the memo starts over (a few hundred KiB at most). */
const MEMO_SIZE = 4096;
const memo = new Map<number, string>();

/**
 * `date.toISOString()`, remembered per instant: a list answers the same records' timestamps over
 * and over, and a lookup costs a tenth of formatting (docs/benchmarks.md, issue 24). Formatting is
 * done in JavaScript: V8's own `toISOString` takes 0.6–1.4 µs a call here, 4–8× this. Years outside
 * 1000–9999, and invalid dates, are left to `toISOString` itself.
 */
export function isoTimestamp(date: Date): string {
  const ms = date.getTime();
  let text = memo.get(ms);
  if (text === undefined) {
    text = format(date);
    if (memo.size >= MEMO_SIZE) memo.clear();
    memo.set(ms, text);
  }
  return text;
}

function format(date: Date): string {
  const year = date.getUTCFullYear();
  if (!(year >= 1000 && year <= 9999)) return date.toISOString();
  return `${year}-${two(date.getUTCMonth() + 1)}-${two(date.getUTCDate())}T${two(date.getUTCHours())}:${two(
    date.getUTCMinutes(),
  )}:${two(date.getUTCSeconds())}.${three(date.getUTCMilliseconds())}Z`;
}
