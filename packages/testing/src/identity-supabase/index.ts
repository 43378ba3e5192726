export * from './FakeGoTrue.ts';
export * from './supabaseTestKit.ts';
