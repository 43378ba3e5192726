import { ProviderError } from '@browserdeck/domain';
import { describe, expect, it } from 'vitest';
import type { ComposableBrowserProvider } from '../browsers/ProviderCapabilities.ts';
import type { InstanceClient } from './InstanceClient.ts';
import { InstanceDirectory } from './InstanceDirectory.ts';
import type { InstanceRecord, InstanceRegistry } from './InstanceRegistry.ts';
import { InstanceRoutedProvider } from './InstanceRoutedProvider.ts';

const SESSION = '0190b000-0000-7000-8000-00000000000a';

/** Instance `b`'s provider, routed, with `a` holding SESSION: alive (`aRecord`) or gone (null). */
function routedOnB(options: { aRecord: InstanceRecord | null; shared: Record<string, string> }) {
  const forwarded: string[] = [];
  const inner = {
    name: 'local',
    regions: ['local'],
    defaultProviderProjectId: 'local',
    sessions: {},
    capabilities: {
      placement: { instanceId: 'b', reachesOtherInstances: false },
      files: {
        // What b's own provider has of a session it does not hold: the shared zip, if any.
        downloads: async (id: string) => {
          const zip = options.shared[id];
          return zip === undefined ? null : chunks(zip);
        },
        upload: async () => null,
      },
    },
  } as unknown as ComposableBrowserProvider;
  const registry = {
    holderOf: async () => 'a',
    find: async (id: string) => (id === 'a' ? options.aRecord : null),
  } as unknown as InstanceRegistry;
  const client = {
    download: async (peer: InstanceRecord) => {
      forwarded.push(peer.id);
      return chunks('from the holder');
    },
  } as unknown as InstanceClient;
  const directory = new InstanceDirectory({ registry, instanceId: 'b', lostAfterMs: 10_000 });
  const provider = new InstanceRoutedProvider({ provider: inner, directory, client });
  return { provider, forwarded };
}

async function* chunks(text: string): AsyncGenerator<Uint8Array> {
  yield Buffer.from(text);
}

async function read(archive: AsyncIterable<Uint8Array> | null | undefined): Promise<string | null> {
  if (!archive) return null;
  let text = '';
  for await (const chunk of archive) text += Buffer.from(chunk).toString('utf8');
  return text;
}

describe('InstanceRoutedProvider: downloads of a session another instance held', () => {
  it('carries the read to the holder while it is alive', async () => {
    const now = new Date();
    const aRecord = { id: 'a', url: 'http://a', bootId: 'boot', startedAt: now, seenAt: now };
    const { provider, forwarded } = routedOnB({ aRecord, shared: { [SESSION]: 'shared zip' } });
    expect(await read(await provider.capabilities.files?.downloads(SESSION))).toBe('from the holder');
    expect(forwarded).toEqual(['a']);
  });

  it('answers what this instance’s provider shares once the holder has stopped', async () => {
    const { provider, forwarded } = routedOnB({ aRecord: null, shared: { [SESSION]: 'shared zip' } });
    expect(await read(await provider.capabilities.files?.downloads(SESSION))).toBe('shared zip');
    expect(forwarded).toEqual([]);
  });

  it('is provider_unavailable when the holder has stopped and nothing was shared', async () => {
    const { provider } = routedOnB({ aRecord: null, shared: {} });
    const reading = provider.capabilities.files?.downloads(SESSION);
    await expect(reading).rejects.toBeInstanceOf(ProviderError);
    await expect(reading).rejects.toMatchObject({ code: 'provider_unavailable' });
  });
});
