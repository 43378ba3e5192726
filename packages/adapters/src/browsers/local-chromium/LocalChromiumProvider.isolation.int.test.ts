import {
  browserRequest,
  describeBrowserIsolationContract,
  startLocalProvider,
} from '@browserdeck/testing/local-chromium';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IsolationLevel } from '../../confinement/isolation/IsolationLevel.ts';

/** A provider on the defaults `npm start` uses (egress closed), at one isolation level. */
async function startProvider(
  level: Exclude<IsolationLevel, 'off'>,
  options: { maxSessions?: number; maxSessionsPerOwner?: number } = {},
) {
  const started = await startLocalProvider({
    maxSessions: options.maxSessions ?? 4,
    maxSessionsPerOwner: options.maxSessionsPerOwner ?? 4,
    warmBrowsers: 1,
    isolation: level,
  });
  expect(await started.provider.isolationLevel()).toBe(level);
  return started;
}

// Both levels run for real on every machine that runs the tests (.ci/run installs bubblewrap; the
// namespaces level needs root, which CI and the developers' machines are).
for (const level of ['bubblewrap', 'namespaces'] as const) {
  describeBrowserIsolationContract(`LocalChromiumProvider (${level})`, async () => {
    const { provider, dataDir, close } = await startProvider(level);
    return {
      dataDir,
      create: async ({ projectId, contextId = null }) => {
        const s = await provider.create(browserRequest({ projectId, contextId }));
        return { id: s.providerSessionId, connectUrl: s.connectUrl };
      },
      release: async (id) => {
        await provider.release(id);
      },
      logs: (id) => provider.logs(id),
      inspect: (id) => {
        const found = provider.inspect(id);
        if (!found) throw new Error(`session ${id} is not running`);
        return found;
      },
      close,
    };
  });
}

describe('LocalChromiumProvider: fair share of slots per project', () => {
  let started: Awaited<ReturnType<typeof startProvider>>;

  beforeAll(async () => {
    started = await startProvider('bubblewrap', { maxSessions: 3, maxSessionsPerOwner: 1 });
  });

  afterAll(() => started?.close());

  it('refuses a second session of one project with 429 while other projects still get slots', async () => {
    const { provider } = started;
    const first = await provider.create(browserRequest({ projectId: 'greedy' }));
    await expect(provider.create(browserRequest({ projectId: 'greedy' }))).rejects.toMatchObject({
      code: 'provider_rate_limited',
      message: expect.stringMatching(/fair share of 1 local sessions/),
      retryAfterSec: expect.any(Number),
    });
    const other = await provider.create(browserRequest({ projectId: 'patient' }));
    expect(other.status).toBe('RUNNING');
    await provider.release(first.providerSessionId);
    const again = await provider.create(browserRequest({ projectId: 'greedy' }));
    expect(again.status).toBe('RUNNING');
    await Promise.all([provider.release(other.providerSessionId), provider.release(again.providerSessionId)]);
  });
});
