import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { downloadsToEvict, type KeptDownloads } from './downloadsToEvict.ts';

const kept = (id: string, owner: string, at: number, bytes: number): KeptDownloads => ({
  id,
  owner,
  at,
  bytes,
});
const ids = (list: KeptDownloads[]) => list.map((entry) => entry.id);

describe('downloadsToEvict', () => {
  it('keeps everything within both budgets', () => {
    const all = [kept('a', 'alice', 1, 5), kept('b', 'bob', 2, 5)];
    expect(downloadsToEvict(all, { maxBytes: 10, maxBytesPerOwner: 5 })).toEqual([]);
  });

  it('takes an account past its share down to it, its own oldest first', () => {
    const all = [
      kept('b1', 'bob', 1, 4),
      kept('a1', 'alice', 2, 4),
      kept('a2', 'alice', 3, 4),
      kept('a3', 'alice', 4, 4),
    ];
    expect(ids(downloadsToEvict(all, { maxBytes: 100, maxBytesPerOwner: 8 }))).toEqual(['a1']);
  });

  it('past the ceiling, takes from the account holding the most (of two as large, the one with the older folder)', () => {
    const all = [
      kept('b1', 'bob', 1, 3),
      kept('a1', 'alice', 2, 6),
      kept('c1', 'carol', 3, 6),
      kept('a2', 'alice', 4, 1),
    ];
    // 16 bytes in 12: Alice holds 7 (her oldest goes), then Carol 6 against Alice's 1 and Bob's 3.
    expect(ids(downloadsToEvict(all, { maxBytes: 12, maxBytesPerOwner: 12 }))).toEqual(['a1']);
    expect(ids(downloadsToEvict(all, { maxBytes: 9, maxBytesPerOwner: 12 }))).toEqual(['a1', 'c1']);
    const even = [kept('x1', 'xavier', 5, 4), kept('y1', 'yan', 2, 4)];
    expect(ids(downloadsToEvict(even, { maxBytes: 6, maxBytesPerOwner: 6 }))).toEqual(['y1']);
  });

  it('never takes from an account within its fair share of the ceiling while the rest are past it', () => {
    const entry = fc.record({
      owner: fc.constantFrom('alice', 'bob', 'carol', 'dave'),
      at: fc.integer({ min: 0, max: 1000 }),
      bytes: fc.integer({ min: 0, max: 50 }),
    });
    fc.assert(
      fc.property(
        fc.array(entry, { maxLength: 30 }),
        fc.integer({ min: 1, max: 200 }),
        fc.integer({ min: 1, max: 200 }),
        (entries, maxBytes, perOwner) => {
          const all = entries.map((e, i) => kept(`s${i}`, e.owner, e.at, e.bytes));
          const budget = { maxBytes, maxBytesPerOwner: Math.min(perOwner, maxBytes) };
          const evicted = new Set(ids(downloadsToEvict(all, budget)));
          const left = all.filter((e) => !evicted.has(e.id));
          const held = (list: KeptDownloads[], owner: string) =>
            list.filter((e) => e.owner === owner).reduce((sum, e) => sum + e.bytes, 0);
          const owners = [...new Set(all.map((e) => e.owner))];
          // Both budgets hold afterwards.
          expect(left.reduce((sum, e) => sum + e.bytes, 0)).toBeLessThanOrEqual(maxBytes);
          for (const owner of owners) expect(held(left, owner)).toBeLessThanOrEqual(budget.maxBytesPerOwner);
          // An account that held no more than its own share and a fair share of the ceiling lost nothing.
          const fair = maxBytes / owners.length;
          for (const owner of owners) {
            if (held(all, owner) <= Math.min(fair, budget.maxBytesPerOwner))
              expect(all.filter((e) => e.owner === owner && evicted.has(e.id))).toEqual([]);
          }
        },
      ),
    );
  });
});
