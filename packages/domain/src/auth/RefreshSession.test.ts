import {
  InMemoryIdentityProvider,
  InMemoryUserRepository,
  ManualClock,
  SequentialIdGenerator,
} from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { RefreshSession } from './RefreshSession.ts';
import { User } from './User.ts';

async function setUp() {
  const clock = new ManualClock('2026-03-01T12:00:00.000Z');
  const identity = new InMemoryIdentityProvider({ ids: new SequentialIdGenerator(), clock });
  const users = new InMemoryUserRepository();
  const { id } = await identity.signUp({ email: 'ada@example.com', password: 'correct horse', metadata: {} });
  await users.ensure(User.create({ id, email: 'ada@example.com', createdAt: clock.now() }));
  const grant = await identity.signIn('ada@example.com', 'correct horse');
  const refresh = new RefreshSession({ identity, users });
  return { clock, identity, users, grant, refresh };
}

describe('RefreshSession', () => {
  it('trades a refresh token for a new pair for the same user, whose access token works', async () => {
    const { identity, grant, refresh, clock } = await setUp();
    clock.advance(60_000);
    const next = await refresh.execute({ refreshToken: grant.refreshToken });
    expect(next.user).toEqual(grant.user);
    expect(next.accessToken).not.toBe(grant.accessToken);
    expect(next.refreshToken).not.toBe(grant.refreshToken);
    expect(next.expiresAt.toISOString()).toBe('2026-03-01T12:16:00.000Z');
    expect(await identity.authenticate(next.accessToken)).toMatchObject({ userId: grant.user.id });
  });

  it('spends the old refresh token: presenting it again is invalid_refresh_token', async () => {
    const { grant, refresh } = await setUp();
    await refresh.execute({ refreshToken: grant.refreshToken });
    await expect(refresh.execute({ refreshToken: grant.refreshToken })).rejects.toMatchObject({
      code: 'invalid_refresh_token',
    });
  });

  it('refuses the refresh of a disabled account with account_disabled', async () => {
    const { grant, refresh, users, clock } = await setUp();
    await users.setDisabled(grant.user.id, clock.now());
    await expect(refresh.execute({ refreshToken: grant.refreshToken })).rejects.toMatchObject({
      code: 'account_disabled',
    });
  });

  it('refuses an unknown refresh token with invalid_refresh_token', async () => {
    const { refresh } = await setUp();
    await expect(refresh.execute({ refreshToken: 'rt-unknown' })).rejects.toMatchObject({
      code: 'invalid_refresh_token',
    });
  });
});
