import { describe, expect, it } from 'vitest';
import { UuidV7Generator } from './UuidV7Generator.ts';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('UuidV7Generator', () => {
  it('makes version-7, variant-1 UUIDs that increase and carry the current time', () => {
    const ids = new UuidV7Generator();
    const before = Date.now();
    const list = Array.from({ length: 5000 }, () => ids.next());
    for (const id of list) expect(id).toMatch(UUID_V7);
    expect([...list].sort()).toEqual(list);
    expect(new Set(list).size).toBe(list.length);
    const ms = Number.parseInt(list[0]!.replace(/-/g, '').slice(0, 12), 16);
    expect(Math.abs(ms - before)).toBeLessThan(1000);
  });
});
