import {
  InMemoryRevokedSessionStore,
  SupabaseIdentityProvider,
  type SupabaseIdentityProviderDeps,
} from '@browserdeck/adapters/identity-supabase';
import { ManualClock } from '@browserdeck/testing';
import { FakeGoTrue } from './FakeGoTrue.ts';

/** The anon key tests send; any string does for the fake. */
export const ANON_KEY = 'sb_publishable_test-anon-key';

/**
 * A provider wired to a fresh fake GoTrue project, sharing one manual clock. Call with nock already
 * loaded (it is imported by FakeGoTrue) and net connect disabled.
 */
export async function supabaseTestKit(overrides: Partial<SupabaseIdentityProviderDeps> = {}) {
  // Real "now", so jose's own checks and the fake's tokens agree before any advance.
  const clock = new ManualClock(new Date());
  const gotrue = await new FakeGoTrue(clock).start();
  const revokedSessions = new InMemoryRevokedSessionStore();
  const identity = new SupabaseIdentityProvider({
    url: gotrue.url,
    anonKey: ANON_KEY,
    revokedSessions,
    clock,
    ...overrides,
  });
  return { identity, gotrue, clock, revokedSessions };
}
