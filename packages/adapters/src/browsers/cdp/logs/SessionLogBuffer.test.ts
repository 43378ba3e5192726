import type { SessionLogEntry } from '@browserdeck/domain';
import { describe, expect, it } from 'vitest';
import { LOGS_DROPPED_METHOD, SessionLogBuffer } from './SessionLogBuffer.ts';

const entry = (n: number, text = `line ${n}`): SessionLogEntry => ({
  timestamp: n,
  method: 'Runtime.consoleAPICalled',
  pageId: 0,
  request: { timestamp: n, params: { args: [{ type: 'string', value: text }] } },
});
const bytesOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

describe('SessionLogBuffer', () => {
  it('keeps every entry while within budget, with no marker', () => {
    const buffer = new SessionLogBuffer({ maxEntryBytes: 1024, maxBytes: 10_000 });
    for (let n = 1; n <= 3; n++) buffer.push(entry(n));
    expect(buffer.entries()).toEqual([entry(1), entry(2), entry(3)]);
    expect(buffer.bytes).toBe(bytesOf(entry(1)) + bytesOf(entry(2)) + bytesOf(entry(3)));
  });

  it('drops the oldest entries past the budget and says how many, first', () => {
    const size = bytesOf(entry(10));
    const buffer = new SessionLogBuffer({ maxEntryBytes: size, maxBytes: size * 3 });
    for (let n = 10; n < 20; n++) buffer.push(entry(n));
    const [marker, ...kept] = buffer.entries();
    expect(kept).toEqual([entry(17), entry(18), entry(19)]);
    expect(marker).toMatchObject({
      method: LOGS_DROPPED_METHOD,
      pageId: -1,
      timestamp: 19,
      request: { params: { droppedEntries: 7, droppedBytes: size * 7, budgetBytes: size * 3 } },
    });
    expect(buffer.bytes).toBe(size * 3);
  });

  it('never holds more than its budget, whatever is logged', () => {
    const buffer = new SessionLogBuffer({ maxEntryBytes: 16 * 1024, maxBytes: 64 * 1024 });
    for (let n = 0; n < 3000; n++) buffer.push(entry(n, 'y'.repeat((n % 7) * 10_000)));
    expect(buffer.bytes).toBeLessThanOrEqual(64 * 1024);
    const kept = buffer.entries().slice(1);
    expect(kept.reduce((sum, e) => sum + bytesOf(e), 0)).toBe(buffer.bytes);
    for (const e of kept) expect(bytesOf(e)).toBeLessThanOrEqual(16 * 1024);
    expect(kept.at(-1)?.timestamp).toBe(2999);
  });

  it('starts empty again after clear', () => {
    const buffer = new SessionLogBuffer({ maxEntryBytes: 1024, maxBytes: 1024 });
    for (let n = 0; n < 100; n++) buffer.push(entry(n));
    buffer.clear();
    expect(buffer.entries()).toEqual([]);
    expect(buffer.bytes).toBe(0);
  });

  it('refuses a budget smaller than one entry', () => {
    expect(() => new SessionLogBuffer({ maxEntryBytes: 1024, maxBytes: 100 })).toThrow(RangeError);
  });
});
