import {
  describeBrowserProviderContract,
  FakeBrowserProvider,
  ManualClock,
} from '@browserdeck/domain/testing';
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
