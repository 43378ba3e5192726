import { describe, expect, it } from 'vitest';
import { toSessionLogEntries } from './toSessionLogEntries.ts';

describe('toSessionLogEntries', () => {
  it('skips items without a method and keeps the order of equal timestamps', () => {
    const entries = toSessionLogEntries([
      { method: 'B', pageId: 0, timestamp: 5 },
      { pageId: 0, timestamp: 1 },
      'noise',
      { method: 'C', pageId: 2, timestamp: 5 },
      { method: 'A', pageId: 1, timestamp: 2 },
    ]);
    expect(entries.map((e) => e.method)).toEqual(['A', 'B', 'C']);
  });

  it('takes the timestamp from the request when the item has none', () => {
    const [entry] = toSessionLogEntries([{ method: 'X', pageId: 0, request: { timestamp: 42, params: {} } }]);
    expect(entry).toEqual({ method: 'X', pageId: 0, timestamp: 42, request: { timestamp: 42, params: {} } });
  });
});
