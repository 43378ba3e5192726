import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  FakeBrowserProvider,
  FakeScriptRunner,
  InMemoryIdentityProvider,
  ManualClock,
  SequentialIdGenerator,
} from '@browserdeck/testing';
import { inMemoryStorage } from '@browserdeck/testing/adapters';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { ComposableBrowserProvider } from '../browsers/ProviderCapabilities.ts';
import type { InstanceRecord, InstanceRegistry } from '../instances/InstanceRegistry.ts';
import type { Browserdeck } from './Browserdeck.ts';
import { composeBrowserdeck } from './createBrowserdeck.ts';

/** The instances of one database, in memory: enough to join, beat and leave. */
function instanceRegistry(): InstanceRegistry {
  const rows = new Map<string, InstanceRecord>();
  return {
    register: async (record) => void rows.set(record.id, record),
    heartbeat: async (id, bootId) => rows.get(id)?.bootId === bootId,
    find: async (id) => rows.get(id) ?? null,
    listSilentSince: async () => [],
    remove: async (id) => void rows.delete(id),
    holderOf: async () => undefined,
  };
}

/**
 * The fake provider with every capability that gives the composition a part to open, added over
 * its own without writing to it (a proxy: the fake's capabilities may be a getter).
 */
function providerWithEverything(clock: ManualClock): ComposableBrowserProvider {
  const fake = new FakeBrowserProvider({ clock });
  const added = {
    lifecycle: { start: async () => {}, close: async () => {} },
    background: { start: () => {}, stop: async () => {} },
    cdp: { open: async () => null },
  };
  return new Proxy(fake, {
    get(target, key) {
      if (key === 'capabilities') return { ...Reflect.get(target, key), ...added };
      if (key === 'takeProxyBytes') return () => [];
      const value: unknown = Reflect.get(target, key);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  }) as ComposableBrowserProvider;
}

let dataDir: string | undefined;
let browserdeck: Browserdeck | undefined;
afterEach(async () => {
  await browserdeck?.close();
  browserdeck = undefined;
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  dataDir = undefined;
});

describe("createBrowserdeck's parts", () => {
  it('declares the phase each part stops in, and stops them in the order the shutdown needs', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'browserdeck-parts-'));
    const clock = new ManualClock();
    const ids = new SequentialIdGenerator();
    const composed = await composeBrowserdeck({
      dataDir,
      database: { storage: { ...inMemoryStorage(clock), instances: instanceRegistry() } },
      identity: { provider: new InMemoryIdentityProvider({ ids, clock }) },
      browsers: { provider: providerWithEverything(clock) },
      secretKey: 'a passphrase for this test only',
      logger: pino({ level: 'silent' }),
      clock,
      ids,
      overrides: { scriptRunner: new FakeScriptRunner({ clock }) },
    });
    browserdeck = composed.browserdeck;
    const { lifecycle } = composed;

    // In the order they are opened, which is the order `start()` starts them.
    expect(lifecycle.parts.map(({ name, phase }) => [name, phase])).toEqual([
      ['storage', 'storage'],
      ['run-queue', 'release'],
      ['instance-id', 'release'],
      ['proxy-bytes', 'flush'],
      ['provider-background', 'end-sessions'],
      ['browsers', 'end-sessions'],
      ['live-view-hub', 'drain'],
      ['instance-forwarder', 'drain'],
      ['script-runner', 'drain'],
      ['run-changes', 'drain'],
      ['instance-membership', 'drain'],
      ['session-reconciler', 'drain'],
      ['run-pruner', 'drain'],
      ['audit-pruner', 'drain'],
      ['run-worker', 'drain'],
    ]);
    // The worker's canceled runs release their sessions before anything they use goes; viewers hear
    // the end before the provider ends the sessions; their last proxy bytes are stored after that;
    // the instance id's slot and the queue are freed near the end, the database last.
    expect(lifecycle.stopOrder().map(({ name }) => name)).toEqual([
      'run-worker',
      'audit-pruner',
      'run-pruner',
      'session-reconciler',
      'instance-membership',
      'run-changes',
      'script-runner',
      'instance-forwarder',
      'live-view-hub',
      'browsers',
      'provider-background',
      'proxy-bytes',
      'instance-id',
      'run-queue',
      'storage',
    ]);
  });
});
