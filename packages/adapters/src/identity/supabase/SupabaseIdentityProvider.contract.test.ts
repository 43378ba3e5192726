// nock is loaded before anything that fetches (see testing/FakeGoTrue.ts).

import { describeIdentityProviderContract } from '@browserdeck/domain/testing';
import nock from 'nock';
import { afterAll, beforeAll } from 'vitest';
import { supabaseTestKit } from './testing/supabaseTestKit.ts';

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
