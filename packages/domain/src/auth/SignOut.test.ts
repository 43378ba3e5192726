import { InMemoryIdentityProvider, ManualClock, SequentialIdGenerator } from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { SignOut } from './SignOut.ts';

async function setUp() {
  const clock = new ManualClock('2026-03-01T12:00:00.000Z');
  const identity = new InMemoryIdentityProvider({ ids: new SequentialIdGenerator(), clock });
  await identity.signUp({ email: 'ada@example.com', password: 'correct horse', metadata: {} });
  const signIn = () => identity.signIn('ada@example.com', 'correct horse');
  return { identity, signIn, signOut: new SignOut({ identity }) };
}

describe('SignOut', () => {
  it('ends the sign-in: its access and refresh tokens stop working at once', async () => {
    const { identity, signIn, signOut } = await setUp();
    const grant = await signIn();
    const principal = await identity.authenticate(grant.accessToken);
    expect(await signOut.execute({ principal })).toEqual({ message: 'Signed out' });
    await expect(identity.authenticate(grant.accessToken)).rejects.toMatchObject({ code: 'unauthorized' });
    await expect(identity.refresh(grant.refreshToken)).rejects.toMatchObject({
      code: 'invalid_refresh_token',
    });
    expect(await identity.isSignInActive(principal)).toBe(false);
  });

  it('leaves the user’s other sign-ins working', async () => {
    const { identity, signIn, signOut } = await setUp();
    const ended = await signIn();
    const other = await signIn();
    await signOut.execute({ principal: await identity.authenticate(ended.accessToken) });
    expect(await identity.authenticate(other.accessToken)).toMatchObject({ email: 'ada@example.com' });
  });
});
