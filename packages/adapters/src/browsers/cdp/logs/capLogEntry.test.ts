import type { SessionLogEntry } from '@browserdeck/domain';
import { describe, expect, it } from 'vitest';
import { capLogEntry } from './capLogEntry.ts';

const MAX = 16 * 1024;
const bytesOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

function consoleEntry(...values: unknown[]): SessionLogEntry {
  const args = values.map((value) => ({ type: typeof value, value }));
  return {
    timestamp: 1,
    method: 'Runtime.consoleAPICalled',
    pageId: 0,
    request: { timestamp: 1, params: { type: 'log', args } },
  };
}

describe('capLogEntry', () => {
  it('returns an entry that fits as it is, with its size', () => {
    const entry = consoleEntry('hello');
    const capped = capLogEntry(entry, MAX);
    expect(capped.entry).toBe(entry);
    expect(capped.bytes).toBe(bytesOf(entry));
  });

  it('cuts a 20 MB string to fit, saying how many characters were dropped', () => {
    const capped = capLogEntry(consoleEntry('x'.repeat(20_000_000)), MAX);
    expect(capped.bytes).toBeLessThanOrEqual(MAX);
    expect(capped.bytes).toBe(bytesOf(capped.entry));
    const args = capped.entry.request!.params!.args as Array<{ value: string }>;
    const value = args[0]!.value;
    const kept = value.indexOf('…');
    expect(value.slice(kept)).toBe(`…[${20_000_000 - kept} characters cut]`);
    expect(value.slice(0, kept)).toBe('x'.repeat(kept));
    expect(capped.entry).toMatchObject({ timestamp: 1, method: 'Runtime.consoleAPICalled', pageId: 0 });
  });

  it('keeps the first items of a long array and counts the rest', () => {
    const capped = capLogEntry(consoleEntry(...Array.from({ length: 5000 }, (_, i) => `item ${i}`)), MAX);
    const args = capped.entry.request?.params?.args as unknown[];
    expect(args).toHaveLength(101);
    expect(args[100]).toBe('…[4900 more items cut]');
    expect(capped.bytes).toBeLessThanOrEqual(MAX);
  });

  it('keeps a preview when thousands of keys will not fit whatever their strings', () => {
    const params = Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`key${i}`, i]));
    const entry: SessionLogEntry = {
      timestamp: 2,
      method: 'Network.responseReceived',
      pageId: 1,
      response: { timestamp: 2, result: params },
    };
    const capped = capLogEntry(entry, MAX);
    expect(capped.bytes).toBeLessThanOrEqual(MAX);
    expect(capped.entry).toMatchObject({ method: 'Network.responseReceived', pageId: 1 });
    expect(capped.entry.response?.result).toMatchObject({
      cut: expect.stringMatching(/^entry of \d+ bytes cut to its first \d+ characters$/),
      preview: expect.stringMatching(/^\{"timestamp":2,"result":\{"key0":0,/),
    });
  });

  it('holds the bound for multi-byte text and quotes too', () => {
    for (const text of ['é'.repeat(100_000), '"'.repeat(100_000), '😀'.repeat(50_000)]) {
      const capped = capLogEntry(consoleEntry(text, text), MAX);
      expect(capped.bytes).toBeLessThanOrEqual(MAX);
    }
  });
});
