import { describe, expect, it } from 'vitest';
import type { RunLogLine } from '../api/types.ts';
import { appendLogLine, NO_LOG_LINES } from './appendLogLine.ts';

const line = (seq: number): RunLogLine => ({
  seq,
  timestamp: '2026-01-01T00:00:00.000Z',
  stream: 'console',
  message: `line ${seq}`,
});

describe('appendLogLine', () => {
  it('adds lines in seq order and ignores one it has already shown', () => {
    let shown = NO_LOG_LINES;
    for (const seq of [1, 2, 2, 1, 3]) shown = appendLogLine(shown, line(seq));
    expect(shown.lines.map((l) => l.seq)).toEqual([1, 2, 3]);
    expect(shown.dropped).toBe(0);
  });

  it('keeps the newest lines past the cap and counts the dropped ones', () => {
    let shown = NO_LOG_LINES;
    for (let seq = 1; seq <= 7; seq++) shown = appendLogLine(shown, line(seq), 3);
    expect(shown.lines.map((l) => l.seq)).toEqual([5, 6, 7]);
    expect(shown.dropped).toBe(4);
  });

  it('leaves the state it was given unchanged', () => {
    const one = appendLogLine(NO_LOG_LINES, line(1));
    appendLogLine(one, line(2));
    expect(one.lines).toHaveLength(1);
    expect(NO_LOG_LINES.lines).toHaveLength(0);
  });
});
