import { SystemClock } from '@browserdeck/domain';
import { afterEach, describe, expect, it } from 'vitest';
import { LocalChromiumProvider } from './LocalChromiumProvider.ts';

describe('LocalChromiumProvider.instanceId', () => {
  const providers: LocalChromiumProvider[] = [];
  afterEach(async () => {
    for (const provider of providers.splice(0)) await provider.close();
  });

  const provider = (instanceId?: string) => {
    const created = new LocalChromiumProvider({
      publicUrl: 'http://127.0.0.1:1',
      dataDir: '/nonexistent',
      maxSessions: 1,
      warmBrowsers: 0,
      clock: new SystemClock(),
      instanceId,
    });
    providers.push(created);
    return created;
  };

  it('is the instanceId option when given', () => {
    expect(provider('pod-7').instanceId).toBe('pod-7');
  });

  it('is a random UUID of its own for every provider otherwise, so two instances never share one', () => {
    const [a, b] = [provider(), provider()];
    expect(a.instanceId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(b.instanceId).not.toBe(a.instanceId);
  });
});
