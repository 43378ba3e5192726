import { describe, expect, it } from 'vitest';
import { formatDuration, formatDurationMs } from './formatting.ts';

describe('formatDuration and formatDurationMs', () => {
  it('write seconds in the largest units that fit', () => {
    expect(formatDuration(5)).toBe('5 s');
    expect(formatDuration(184)).toBe('3 min 4 s');
    expect(formatDuration(3720)).toBe('1 h 2 min');
  });

  it('write a run’s milliseconds with a decimal under a minute, and nothing for none', () => {
    expect(formatDurationMs(0)).toBe('0 ms');
    expect(formatDurationMs(850)).toBe('850 ms');
    expect(formatDurationMs(4230)).toBe('4.2 s');
    expect(formatDurationMs(59_940)).toBe('59.9 s');
    expect(formatDurationMs(59_960)).toBe('1 min');
    expect(formatDurationMs(125_000)).toBe('2 min 5 s');
    expect(formatDurationMs(null)).toBe('—');
    expect(formatDurationMs(undefined)).toBe('—');
    expect(formatDurationMs(-1)).toBe('—');
  });
});
