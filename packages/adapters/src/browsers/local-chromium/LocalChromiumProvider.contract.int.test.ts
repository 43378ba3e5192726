import { describeBrowserProviderContract } from '@browserdeck/testing';
import { startLocalProvider } from '@browserdeck/testing/local-chromium';

describeBrowserProviderContract('LocalChromiumProvider (real Chromium)', {
  create: async () => {
    const { provider, close } = await startLocalProvider({ warmBrowsers: 1 });
    return { provider, dispose: close };
  },
  files: true,
});
