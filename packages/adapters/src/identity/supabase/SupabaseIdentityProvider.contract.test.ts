// nock is loaded before anything that fetches (see testing/FakeGoTrue.ts).

import { describeIdentityProviderContract } from '@browserdeck/testing';
import { supabaseTestKit } from '@browserdeck/testing/identity-supabase';
import nock from 'nock';
import { afterAll, beforeAll } from 'vitest';

beforeAll(() => nock.disableNetConnect());
afterAll(() => {
  nock.cleanAll();
  nock.enableNetConnect();
});

describeIdentityProviderContract('SupabaseIdentityProvider (nock fake of GoTrue)', {
  create: async () => {
    const { identity, clock } = await supabaseTestKit();
    return { identity, advanceTime: (ms) => clock.advance(ms) };
  },
});
