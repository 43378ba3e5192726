/** A timestamp in the reader's locale, or an em dash for none. */
export function formatTime(value: string | number | null | undefined): string {
  if (value === null || value === undefined || value === '') return '—';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? String(value) : date.toLocaleString();
}

/** Seconds as `1 h 2 min`, `3 min 4 s` or `5 s`. */
export function formatDuration(totalSec: number): string {
  const sec = Math.round(totalSec);
  if (sec < 60) return `${sec} s`;
  const min = Math.floor(sec / 60);
  if (min < 60) return `${min} min${sec % 60 ? ` ${sec % 60} s` : ''}`;
  const hours = Math.floor(min / 60);
  return `${hours} h${min % 60 ? ` ${min % 60} min` : ''}`;
}

/** Milliseconds as `850 ms`, `4.2 s`, then as `formatDuration` does; an em dash for none. */
export function formatDurationMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms) || ms < 0) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 59_950) return `${(ms / 1000).toFixed(1)} s`;
  return formatDuration(ms / 1000);
}
