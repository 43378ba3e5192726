import { describeBrowserProviderContract } from '@browserdeck/testing';
import { type SeleniumGrid, startGridProvider, startSeleniumGrid } from '@browserdeck/testing/selenium-grid';
import { afterAll } from 'vitest';

let grid: Promise<SeleniumGrid> | null = null;

afterAll(async () => {
  await (await grid)?.close();
});

describeBrowserProviderContract('SeleniumGridProvider (a real Selenium Grid 4)', {
  create: async () => {
    // One Grid for the suite: each test gets a provider of its own on it.
    grid ??= startSeleniumGrid({ topology: 'standalone', maxSessionsPerNode: 4 });
    const { provider, close } = await startGridProvider((await grid).url);
    return { provider, request: { providerProjectId: 'selenium-grid', region: 'grid' }, dispose: close };
  },
});
