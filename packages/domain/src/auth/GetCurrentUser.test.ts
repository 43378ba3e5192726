import { aUser, InMemoryUserRepository, ManualClock } from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { GetCurrentUser } from './GetCurrentUser.ts';
import type { Principal } from './IdentityProvider.ts';

const principal = (userId: string, email: string): Principal => ({
  userId,
  email,
  sessionId: 'sign-in-1',
  expiresAt: new Date('2026-03-01T12:15:00.000Z'),
});

function setUp() {
  const clock = new ManualClock('2026-03-01T12:00:00.000Z');
  const users = new InMemoryUserRepository();
  const getCurrentUser = new GetCurrentUser({ users, clock });
  return { clock, users, getCurrentUser };
}

describe('GetCurrentUser', () => {
  it('records a user on first sight, created now, and answers id and e-mail only', async () => {
    const { users, getCurrentUser } = setUp();
    const answer = await getCurrentUser.execute({ principal: principal('user-1', 'ada@example.com') });
    expect(answer).toEqual({ user: { id: 'user-1', email: 'ada@example.com' } });
    const stored = await users.findById('user-1');
    expect(stored).toMatchObject({ id: 'user-1', email: 'ada@example.com' });
    expect(stored?.createdAt.toISOString()).toBe('2026-03-01T12:00:00.000Z');
  });

  it('keeps and answers the recorded user when it is known already', async () => {
    const { users, getCurrentUser, clock } = setUp();
    await users.ensure(aUser({ id: 'user-1', email: 'first@example.com' }));
    clock.advance(60_000);
    const answer = await getCurrentUser.execute({ principal: principal('user-1', 'second@example.com') });
    expect(answer.user.email).toBe('first@example.com');
    expect((await users.findById('user-1'))?.email).toBe('first@example.com');
  });
});
