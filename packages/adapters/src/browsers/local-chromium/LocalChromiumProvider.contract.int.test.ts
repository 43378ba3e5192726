import { SystemClock } from '@browserdeck/domain';
import { describeBrowserProviderContract } from '@browserdeck/domain/testing';
import { beforeAll } from 'vitest';
import { LocalChromiumProvider } from './LocalChromiumProvider.ts';
import { makeScratchDir, requireChromium, startConnectServer } from './testing/localChromiumTestKit.ts';

beforeAll(async () => {
  await requireChromium();
});

describeBrowserProviderContract('LocalChromiumProvider (real Chromium)', {
  create: async () => {
    const scratch = await makeScratchDir();
    const connect = await startConnectServer();
    const provider = new LocalChromiumProvider({
      publicUrl: connect.publicUrl,
      dataDir: scratch.dir,
      tempDir: scratch.dir,
      maxSessions: 2,
      maxSessionsPerProject: 2,
      warmBrowsers: 1,
      clock: new SystemClock(),
    });
    connect.attach(provider);
    await provider.start();
    return {
      provider,
      dispose: async () => {
        await provider.close();
        await connect.close();
        await scratch.remove();
      },
    };
  },
});
