import { describe, expect, it } from 'vitest';
import { describeIdentityProviderContract } from './describeIdentityProviderContract.ts';
import { InMemoryIdentityProvider } from './InMemoryIdentityProvider.ts';
import { ManualClock } from './ManualClock.ts';
import { SequentialIdGenerator } from './SequentialIdGenerator.ts';

describeIdentityProviderContract('InMemoryIdentityProvider', {
  create: async () => {
    const clock = new ManualClock();
    const identity = new InMemoryIdentityProvider({ ids: new SequentialIdGenerator(), clock });
    return { identity, advanceTime: (ms) => clock.advance(ms) };
  },
});

describe('InMemoryIdentityProvider', () => {
  it('refuses an expired refresh token', async () => {
    const clock = new ManualClock();
    const identity = new InMemoryIdentityProvider({
      ids: new SequentialIdGenerator(),
      clock,
      refreshTokenTtlSec: 60,
    });
    await identity.signUp({ email: 'ada@example.com', password: 'password1', metadata: {} });
    const grant = await identity.signIn('ada@example.com', 'password1');
    clock.advance(60_000);
    await expect(identity.refresh(grant.refreshToken)).rejects.toMatchObject({
      code: 'invalid_refresh_token',
    });
  });
});
