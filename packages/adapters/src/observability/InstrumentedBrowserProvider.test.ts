import { describeBrowserProviderContract, FakeBrowserProvider, ManualClock } from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import type { ComposableBrowserProvider } from '../browsers/ProviderCapabilities.ts';
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
  files: true,
});

/** `provider` with `extra` capabilities over its own. */
function withCapabilities(
  provider: FakeBrowserProvider,
  extra: Partial<ComposableBrowserProvider['capabilities']>,
): ComposableBrowserProvider {
  return {
    name: provider.name,
    regions: provider.regions,
    defaultProviderProjectId: provider.defaultProviderProjectId,
    sessions: provider.sessions,
    capabilities: { ...provider.capabilities, ...extra },
  };
}

describe('InstrumentedBrowserProvider', () => {
  it('passes on the wrapped provider’s context store, or none', () => {
    const metrics = new MetricsRegistry();
    const withContexts = new FakeBrowserProvider({ clock: new ManualClock() });
    const without = new FakeBrowserProvider({ clock: new ManualClock(), contexts: false });
    expect(withContexts.capabilities.contexts).toBeDefined();
    expect(new InstrumentedBrowserProvider({ provider: withContexts, metrics }).capabilities.contexts).toBe(
      withContexts.capabilities.contexts,
    );
    expect(
      new InstrumentedBrowserProvider({ provider: without, metrics }).capabilities.contexts,
    ).toBeUndefined();
  });

  it('passes on the wrapped provider’s extension store, or none', () => {
    const metrics = new MetricsRegistry();
    const store = { upload: async () => 'provider-ext', delete: async () => {} };
    const storing = withCapabilities(new FakeBrowserProvider({ clock: new ManualClock() }), {
      extensions: store,
    });
    const plain = new FakeBrowserProvider({ clock: new ManualClock() });
    expect(new InstrumentedBrowserProvider({ provider: storing, metrics }).capabilities.extensions).toBe(
      store,
    );
    expect(
      new InstrumentedBrowserProvider({ provider: plain, metrics }).capabilities.extensions,
    ).toBeUndefined();
  });

  it('passes on the wrapped provider’s live URLs, measured, and has none when it has none', async () => {
    const metrics = new MetricsRegistry();
    const plain = new FakeBrowserProvider({ clock: new ManualClock() });
    const urls = { debuggerUrl: 'd', debuggerFullscreenUrl: 'f', wsUrl: 'w', pages: [] };
    const asked: string[] = [];
    const withUrls = withCapabilities(plain, {
      liveView: {
        liveUrls: async (id: string) => {
          asked.push(id);
          return urls;
        },
      },
    });
    expect(
      new InstrumentedBrowserProvider({ provider: plain, metrics }).capabilities.liveView,
    ).toBeUndefined();
    expect(
      await new InstrumentedBrowserProvider({ provider: withUrls, metrics }).capabilities.liveView?.liveUrls(
        'bb-1',
      ),
    ).toBe(urls);
    expect(asked).toEqual(['bb-1']);
    expect(await metrics.render()).toMatch(
      /browserdeck_provider_calls_total\{[^}]*operation="liveUrls"[^}]*\} 1/,
    );
  });

  it('measures a method a capability gains without an edit of the wrapper', async () => {
    const metrics = new MetricsRegistry();
    const fake = new FakeBrowserProvider({ clock: new ManualClock() });
    const files = Object.assign(Object.create(fake) as FakeBrowserProvider, { inspect: async () => 'seen' });
    const wrapped = new InstrumentedBrowserProvider({ provider: withCapabilities(fake, { files }), metrics });
    expect(await (wrapped.capabilities.files as unknown as { inspect(): Promise<string> }).inspect()).toBe(
      'seen',
    );
    expect(await metrics.render()).toMatch(
      /browserdeck_provider_calls_total\{[^}]*operation="inspect"[^}]*\} 1/,
    );
  });
});

describe('InstrumentedBrowserProvider: proxy bytes', () => {
  it('passes proxy metering on when the wrapped provider meters them, and has none when it does not', () => {
    const metrics = new MetricsRegistry();
    const plain = new FakeBrowserProvider({ clock: new ManualClock() });
    const deltas = [[{ providerSessionId: 'p-1', bytes: 42 }], []];
    const metering = withCapabilities(plain, { proxyMetering: { take: () => deltas.shift() ?? [] } });
    expect(
      new InstrumentedBrowserProvider({ provider: plain, metrics }).capabilities.proxyMetering,
    ).toBeUndefined();
    const wrapped = new InstrumentedBrowserProvider({ provider: metering, metrics });
    expect(wrapped.capabilities.proxyMetering?.take()).toEqual([{ providerSessionId: 'p-1', bytes: 42 }]);
    expect(wrapped.capabilities.proxyMetering?.take()).toEqual([]);
  });
});
