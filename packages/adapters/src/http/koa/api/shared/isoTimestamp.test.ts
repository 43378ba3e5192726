import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoTimestamp } from './isoTimestamp.ts';

describe('isoTimestamp', () => {
  it.each([
    ['years 1000–9999', { min: new Date('1000-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59.999Z') }],
    ['any representable instant', {}],
  ])('writes what toISOString writes, for %s', (_, range) => {
    fc.assert(
      fc.property(fc.date({ ...range, noInvalidDate: true }), (date) => {
        expect(isoTimestamp(date)).toBe(date.toISOString());
      }),
      { numRuns: 10_000 },
    );
  });

  it.each([
    '1000-01-01T00:00:00.000Z',
    '1970-01-01T00:00:00.000Z',
    '2026-11-23T09:05:07.089Z',
    '2024-02-29T23:59:59.999Z',
    '9999-12-31T23:59:59.999Z',
  ])('keeps the padding of %s', (text) => {
    expect(isoTimestamp(new Date(text))).toBe(text);
  });

  it('leaves years outside 1000–9999 and invalid dates to toISOString', () => {
    expect(isoTimestamp(new Date('0999-12-31T23:59:59.999Z'))).toBe('0999-12-31T23:59:59.999Z');
    expect(isoTimestamp(new Date(Date.UTC(10_000, 0, 1)))).toBe('+010000-01-01T00:00:00.000Z');
    expect(isoTimestamp(new Date(-62_198_755_200_000))).toBe('-000001-01-01T00:00:00.000Z');
    expect(() => isoTimestamp(new Date(Number.NaN))).toThrow(RangeError);
  });
});
