import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_AFTER_SEC, parseRetryAfter } from './parseRetryAfter.ts';

const now = new Date('2026-03-02T10:15:00.000Z');

describe('parseRetryAfter', () => {
  it('reads delay-seconds, rounding fractions up', () => {
    expect(parseRetryAfter('30', now)).toBe(30);
    expect(parseRetryAfter(' 2.2 ', now)).toBe(3);
  });

  it('reads an HTTP date as seconds from now, at least 1', () => {
    expect(parseRetryAfter('Mon, 02 Mar 2026 10:16:00 GMT', now)).toBe(60);
    expect(parseRetryAfter('Mon, 02 Mar 2026 10:00:00 GMT', now)).toBe(1);
  });

  it('never answers 0 seconds', () => {
    expect(parseRetryAfter('0', now)).toBe(1);
  });

  it('falls back when the header is absent or unreadable', () => {
    expect(parseRetryAfter(undefined, now)).toBe(DEFAULT_RETRY_AFTER_SEC);
    expect(parseRetryAfter('', now)).toBe(5);
    expect(parseRetryAfter('soon', now)).toBe(5);
    expect(parseRetryAfter('-3', now, 9)).toBe(9);
  });
});
