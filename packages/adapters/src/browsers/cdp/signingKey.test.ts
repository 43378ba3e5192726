import { describe, expect, it } from 'vitest';
import { digestSigningKey, generateSigningKey, signingKeyMatches } from './signingKey.ts';

describe('signing keys', () => {
  it('are 32 random bytes in base64url, different each time', () => {
    const key = generateSigningKey();
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(key, 'base64url')).toHaveLength(32);
    expect(generateSigningKey()).not.toBe(key);
  });

  it('match only the key they were made from', () => {
    const key = generateSigningKey();
    const digest = digestSigningKey(key);
    expect(signingKeyMatches(key, digest)).toBe(true);
    expect(signingKeyMatches(generateSigningKey(), digest)).toBe(false);
    expect(signingKeyMatches(`${key}x`, digest)).toBe(false);
    expect(signingKeyMatches('', digest)).toBe(false);
    expect(signingKeyMatches(null, digest)).toBe(false);
  });
});
