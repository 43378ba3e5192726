export { type FakeBrowserbaseApi, fakeBrowserbaseApi } from './fakeBrowserbaseApi.ts';
