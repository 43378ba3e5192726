import { describeBrowserProviderContract } from '@browserdeck/domain/testing';
import { startLocalProvider } from './testing/localChromiumTestKit.ts';

describeBrowserProviderContract('LocalChromiumProvider (real Chromium)', {
  create: async () => {
    const { provider, close } = await startLocalProvider({ warmBrowsers: 1 });
    return { provider, dispose: close };
  },
});
