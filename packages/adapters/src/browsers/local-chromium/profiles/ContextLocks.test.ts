import { describe, expect, it } from 'vitest';
import { ContextLocks } from './ContextLocks.ts';

describe('ContextLocks', () => {
  it('says what could be taken without taking it, and agrees with the takes', () => {
    const locks = new ContextLocks();
    expect(locks.canTake('p/c', true)).toBe(true);
    expect(locks.canTake('p/c', false)).toBe(true);
    expect(locks.takeForCopy('p/c')).toBe(true);
    // Copies side by side, but nobody alone while one is made.
    expect(locks.canTake('p/c', false)).toBe(true);
    expect(locks.canTake('p/c', true)).toBe(false);
    expect(locks.takeExclusive('p/c')).toBe(false);
    locks.releaseCopy('p/c');
    expect(locks.takeExclusive('p/c')).toBe(true);
    expect(locks.canTake('p/c', false)).toBe(false);
    expect(locks.canTake('p/c', true)).toBe(false);
    expect(locks.canTake('p/other', true)).toBe(true);
    locks.releaseExclusive('p/c');
    expect(locks.canTake('p/c', true)).toBe(true);
  });
});
