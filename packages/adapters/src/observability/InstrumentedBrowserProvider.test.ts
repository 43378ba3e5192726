import { describeBrowserProviderContract, FakeBrowserProvider, ManualClock } from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { InstrumentedBrowserProvider } from './InstrumentedBrowserProvider.ts';
import { MetricsRegistry } from './MetricsRegistry.ts';

// The wrapper must pass on everything the use cases read, `instanceId` included.
describeBrowserProviderContract('InstrumentedBrowserProvider over one instance of a local-style provider', {
  create: async () => ({
    provider: new InstrumentedBrowserProvider({
      provider: new FakeBrowserProvider({
        clock: new ManualClock(),
        name: 'local',
        instanceId: 'instance-a',
      }),
      metrics: new MetricsRegistry(),
    }),
  }),
});

describe('InstrumentedBrowserProvider', () => {
  it('passes on the wrapped provider’s context store, or none', () => {
    const metrics = new MetricsRegistry();
    const withContexts = new FakeBrowserProvider({ clock: new ManualClock() });
    const without = new FakeBrowserProvider({ clock: new ManualClock(), contexts: false });
    expect(withContexts.contexts).toBeDefined();
    expect(new InstrumentedBrowserProvider({ provider: withContexts, metrics }).contexts).toBe(
      withContexts.contexts,
    );
    expect(new InstrumentedBrowserProvider({ provider: without, metrics }).contexts).toBeUndefined();
  });

  it('passes on the wrapped provider’s extension store, or none', () => {
    const metrics = new MetricsRegistry();
    const store = { upload: async () => 'provider-ext', delete: async () => {} };
    const storing = Object.assign(new FakeBrowserProvider({ clock: new ManualClock() }), {
      extensions: store,
    });
    const plain = new FakeBrowserProvider({ clock: new ManualClock() });
    expect(new InstrumentedBrowserProvider({ provider: storing, metrics }).extensions).toBe(store);
    expect(new InstrumentedBrowserProvider({ provider: plain, metrics }).extensions).toBeUndefined();
  });

  it('passes on the wrapped provider’s live URLs, measured, and has none when it has none', async () => {
    const metrics = new MetricsRegistry();
    const plain = new FakeBrowserProvider({ clock: new ManualClock() });
    const urls = { debuggerUrl: 'd', debuggerFullscreenUrl: 'f', wsUrl: 'w', pages: [] };
    const asked: string[] = [];
    const withUrls = Object.assign(Object.create(plain) as FakeBrowserProvider, {
      liveUrls: async (id: string) => {
        asked.push(id);
        return urls;
      },
    });
    expect(new InstrumentedBrowserProvider({ provider: plain, metrics }).liveUrls).toBeUndefined();
    expect(await new InstrumentedBrowserProvider({ provider: withUrls, metrics }).liveUrls?.('bb-1')).toBe(
      urls,
    );
    expect(asked).toEqual(['bb-1']);
    expect(await metrics.render()).toMatch(
      /browserdeck_provider_calls_total\{[^}]*operation="liveUrls"[^}]*\} 1/,
    );
  });
});

describe('InstrumentedBrowserProvider: proxy bytes', () => {
  it('passes takeProxyBytes on when the wrapped provider meters them, and has none when it does not', () => {
    const metrics = new MetricsRegistry();
    const plain = new FakeBrowserProvider({ clock: new ManualClock() });
    const deltas = [[{ providerSessionId: 'p-1', bytes: 42 }], []];
    const metering = Object.assign(Object.create(plain) as FakeBrowserProvider, {
      takeProxyBytes: () => deltas.shift() ?? [],
    });
    expect(new InstrumentedBrowserProvider({ provider: plain, metrics }).takeProxyBytes).toBeUndefined();
    const wrapped = new InstrumentedBrowserProvider({ provider: metering, metrics });
    expect(wrapped.takeProxyBytes?.()).toEqual([{ providerSessionId: 'p-1', bytes: 42 }]);
    expect(wrapped.takeProxyBytes?.()).toEqual([]);
  });
});
