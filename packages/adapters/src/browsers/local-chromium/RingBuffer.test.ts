import { describe, expect, it } from 'vitest';
import { RingBuffer } from './RingBuffer.ts';

describe('RingBuffer', () => {
  it('keeps the newest items, oldest first', () => {
    const buffer = new RingBuffer<number>(3);
    for (const n of [1, 2]) buffer.push(n);
    expect(buffer.toArray()).toEqual([1, 2]);
    for (const n of [3, 4, 5]) buffer.push(n);
    expect(buffer.toArray()).toEqual([3, 4, 5]);
    expect(buffer.size).toBe(3);
  });

  it('empties on clear and refuses a zero capacity', () => {
    const buffer = new RingBuffer<string>(2);
    buffer.push('a');
    buffer.push('b');
    buffer.push('c');
    buffer.clear();
    expect(buffer.toArray()).toEqual([]);
    buffer.push('d');
    expect(buffer.toArray()).toEqual(['d']);
    expect(() => new RingBuffer(0)).toThrow(RangeError);
  });
});
