export * from '../browsers/browserProcesses.ts';
export * from '../browsers/describeBrowserIsolationContract.ts';
export * from './eventedCdp.ts';
export * from './givenScriptRunner.ts';
export * from './localChromiumTestKit.ts';
export * from './webdriverProviderKit.ts';
