export { FakeGoTrue } from './FakeGoTrue.ts';
export { ANON_KEY, supabaseTestKit } from './supabaseTestKit.ts';
