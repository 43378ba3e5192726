import { API_KEY_PATTERN, apiKeyPrefix } from '@browserdeck/domain';
import { describe, expect, it } from 'vitest';
import { NodeApiKeySecrets } from './NodeApiKeySecrets.ts';

describe('NodeApiKeySecrets', () => {
  const secrets = new NodeApiKeySecrets();

  it('makes bdk_ keys of 32 random bytes, each different', () => {
    const keys = Array.from({ length: 50 }, () => secrets.generate());
    for (const key of keys) {
      expect(key).toMatch(API_KEY_PATTERN);
      expect(Buffer.from(key.slice(4), 'base64url')).toHaveLength(32);
    }
    expect(new Set(keys).size).toBe(50);
    expect(new Set(keys.map(apiKeyPrefix)).size).toBe(50);
  });

  it('stores the SHA-256 digest and matches only the same key', () => {
    const key = secrets.generate();
    const digest = secrets.digest(key);
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
    expect(digest).not.toContain(key.slice(4));
    expect(secrets.matches(key, digest)).toBe(true);
    expect(secrets.matches(`${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`, digest)).toBe(false);
    expect(secrets.matches(key, 'not-hex')).toBe(false);
    expect(secrets.matches(key, '')).toBe(false);
  });
});
