import { describe, expect, it } from 'vitest';
import { ApiKey } from './ApiKey.ts';

const T0 = new Date('2026-03-01T12:00:00.000Z');

describe('ApiKey.restore', () => {
  it('rebuilds a created key from its state, methods included', () => {
    const created = ApiKey.create({
      id: 'k-1',
      projectId: 'p-1',
      ownerId: 'u-1',
      name: 'CI',
      role: 'viewer',
      prefix: 'bd_abc',
      digest: 'd1',
      expiresAt: new Date('2026-04-01T00:00:00.000Z'),
      now: T0,
    });
    const restored = ApiKey.restore({ ...created });
    expect(restored).toBeInstanceOf(ApiKey);
    expect(restored).toEqual(created);
    restored.revoke(T0);
    expect(restored.isUsableAt(T0)).toBe(false);
    expect(created.isUsableAt(T0)).toBe(true);
  });
});
