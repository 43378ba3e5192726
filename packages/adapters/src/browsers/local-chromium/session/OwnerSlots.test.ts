import { describe, expect, it } from 'vitest';
import { OwnerSlots } from './OwnerSlots.ts';

describe('OwnerSlots', () => {
  it('counts creates under way and sessions per account, and gives slots back', () => {
    const slots = new OwnerSlots(2);
    slots.reserve('alice');
    slots.reserve('alice');
    slots.reserve('bob');
    expect([slots.reserved, slots.held('alice'), slots.held('bob')]).toEqual([3, 2, 1]);
    // One of alice's opened a session (the slot stays), the other failed (it is given back).
    slots.settle('alice', true);
    slots.settle('alice', false);
    slots.settle('bob', true);
    expect([slots.reserved, slots.held('alice'), slots.held('bob')]).toEqual([0, 1, 1]);
    slots.free('alice');
    expect(slots.held('alice')).toBe(0);
    slots.free('alice');
    expect(slots.held('alice')).toBe(0);
  });

  it('refuses a share that is not a positive integer', () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) expect(() => new OwnerSlots(bad)).toThrow(RangeError);
  });
});
