/** Small statistics helpers shared by the benchmark scenarios. */

export const median = (values: number[]): number => percentile(values, 50);

/** Nearest-rank percentile (`p` in 0..100) of `values`; NaN for an empty list. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export const fmt = (value: number, digits = 1): string =>
  Number.isFinite(value) ? value.toFixed(digits) : 'n/a';

/** A markdown table. */
export function table(head: string[], rows: string[][]): string {
  const align = head.map((_, i) => (i === 0 ? '---' : '---:'));
  return [head, align, ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}
