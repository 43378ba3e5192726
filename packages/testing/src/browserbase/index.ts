export * from './browserbaseTestKit.ts';
export * from './fakeBrowserbaseApi.ts';
