import { describe, expect, it } from 'vitest';
import { browserRequest } from './browserRequest.ts';
import { describeBrowserProviderContract } from './describeBrowserProviderContract.ts';
import { FakeBrowserProvider } from './FakeBrowserProvider.ts';
import { ManualClock } from './ManualClock.ts';

describeBrowserProviderContract('FakeBrowserProvider', {
  create: async () => ({ provider: new FakeBrowserProvider({ clock: new ManualClock() }) }),
  files: true,
});

describeBrowserProviderContract('FakeBrowserProvider (local-style, one region)', {
  create: async () => ({
    provider: new FakeBrowserProvider({ clock: new ManualClock(), name: 'local', regions: ['local'] }),
    request: { timeoutSec: 60 },
  }),
});

describeBrowserProviderContract('FakeBrowserProvider (one instance of a local-style provider)', {
  create: async () => ({
    provider: new FakeBrowserProvider({ clock: new ManualClock(), name: 'local', instanceId: 'instance-a' }),
  }),
});

describe('FakeBrowserProvider', () => {
  const request = browserRequest({ sessionId: 's', projectId: 'p', providerProjectId: 'fake-project' });

  it('with an instanceId, stands for one instance: another one knows none of its sessions', async () => {
    const clock = new ManualClock();
    const a = new FakeBrowserProvider({ clock, instanceId: 'instance-a' });
    const b = new FakeBrowserProvider({ clock, instanceId: 'instance-b' });
    const created = await a.create(request);
    expect(created.instanceId).toBe('instance-a');
    expect((await b.create(request)).providerSessionId).not.toBe(created.providerSessionId);
    expect(await b.get(created.providerSessionId)).toBeNull();
    expect(a.running).toEqual([created.providerSessionId]);
  });

  it('fails the next call of the given kind once, with the code and retry-after given', async () => {
    const provider = new FakeBrowserProvider({ clock: new ManualClock() });
    provider.failNext('create', 'provider_rate_limited', 7);
    await expect(provider.create(request)).rejects.toMatchObject({
      code: 'provider_rate_limited',
      retryAfterSec: 7,
    });
    const created = await provider.create(request);
    expect(provider.running).toEqual([created.providerSessionId]);
    expect(provider.calls.map((c) => c.op)).toEqual(['create', 'create']);
  });

  it('reports a status set on its side, with an end time for a terminal one', async () => {
    const clock = new ManualClock('2026-01-01T00:00:00.000Z');
    const provider = new FakeBrowserProvider({ clock });
    const created = await provider.create(request);
    clock.advance(5_000);
    provider.setStatus(created.providerSessionId, 'TIMED_OUT');
    const got = await provider.get(created.providerSessionId);
    expect(got?.status).toBe('TIMED_OUT');
    expect(got?.endedAt?.toISOString()).toBe('2026-01-01T00:00:05.000Z');
    expect(provider.running).toEqual([]);
    provider.forget(created.providerSessionId);
    expect(await provider.get(created.providerSessionId)).toBeNull();
  });
});
