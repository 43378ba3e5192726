import { describe, expect, it } from 'vitest';
import { atCursor } from './inspectorClock.ts';

describe('atCursor', () => {
  const moments = [100, 200, 200, 400];
  it('is the last item at or before the cursor', () => {
    expect(atCursor(moments, (m) => m, 250)).toBe(2);
    expect(atCursor(moments, (m) => m, 400)).toBe(3);
    expect(atCursor(moments, (m) => m, 100)).toBe(0);
  });
  it('is undefined before the first item or without a cursor', () => {
    expect(atCursor(moments, (m) => m, 99)).toBeUndefined();
    expect(atCursor(moments, (m) => m, null)).toBeUndefined();
    expect(atCursor([], (m: number) => m, 500)).toBeUndefined();
  });
});
