import { describe, expect, it } from 'vitest';
import { User } from './User.ts';

describe('User.restore', () => {
  it('rebuilds a created user from its state', () => {
    const created = User.create({
      id: 'u-1',
      email: 'a@example.com',
      createdAt: new Date('2026-03-01T12:00:00Z'),
    });
    const restored = User.restore({ ...created });
    expect(restored).toBeInstanceOf(User);
    expect(restored).toEqual(created);
  });
});
