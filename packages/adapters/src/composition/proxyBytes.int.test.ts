import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asUser, type ProxyBytesDelta, SystemClock } from '@browserdeck/domain';
import { FakeBrowserProvider, InMemoryIdentityProvider } from '@browserdeck/testing';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { ComposableBrowserProvider } from '../browsers/ProviderCapabilities.ts';
import { UuidV7Generator } from '../shared/UuidV7Generator.ts';
import type { Browserdeck } from './Browserdeck.ts';
import { createBrowserdeck } from './createBrowserdeck.ts';

const dirs: string[] = [];
let composed: Browserdeck | undefined;
afterEach(async () => {
  await composed?.close();
  composed = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fake provider that meters proxy bytes as the local one does, and meters a session's last bytes as it closes. */
function meteringProvider() {
  const clock = new SystemClock();
  const metered: ProxyBytesDelta[] = [];
  const lastBytes: ProxyBytesDelta[] = [];
  const events: string[] = [];
  const provider: ComposableBrowserProvider = Object.assign(
    new FakeBrowserProvider({ clock, instanceId: 'solo' }),
    {
      takeProxyBytes: () => metered.splice(0),
      capabilities: {
        lifecycle: {
          start: async () => {},
          close: async () => {
            events.push('provider closed');
            metered.push(...lastBytes);
          },
        },
      },
    },
  );
  return { provider, metered, lastBytes, events };
}

/** Resolves once `condition` holds, looking again every 20 ms (at most 10 s). */
async function until(condition: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('proxy bytes in the composition, on SQLite', () => {
  it('stores what the provider metered every flush while started, and its last bytes at close', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'browserdeck-proxy-bytes-'));
    dirs.push(dir);
    const { provider, metered, lastBytes, events } = meteringProvider();
    composed = await createBrowserdeck({
      dataDir: dir,
      database: { url: `sqlite:${join(dir, 'db.sqlite')}` },
      identity: {
        provider: new InMemoryIdentityProvider({ ids: new UuidV7Generator(), clock: new SystemClock() }),
      },
      browsers: { provider },
      secretKey: 'a passphrase for this test only',
      logger: pino({ level: 'silent' }),
      reconcileIntervalSec: 86_400,
      proxyBytesFlushSec: 0.05,
    });
    const { useCases, storage } = composed;
    const { user } = await useCases.auth.signUp.execute({
      email: 'ada@example.com',
      password: 'correct horse',
    });
    const caller = asUser(user.id);
    const project = await useCases.projects.create.execute({ caller, name: 'Bytes' });
    const { session } = await useCases.sessions.create.execute({
      caller,
      projectId: project.id,
      request: {},
    });
    const bytesOf = async () =>
      (await storage.sessions.findInProject(project.id, session.id))?.proxyBytes ?? Number.NaN;

    metered.push({ providerSessionId: session.providerSessionId, bytes: 1500 });
    composed.start();
    await until(async () => (await bytesOf()) === 1500);
    metered.push({ providerSessionId: session.providerSessionId, bytes: 500 });
    await until(async () => (await bytesOf()) === 2000);
    const stats = await useCases.sessions.stats.execute({ caller, projectId: project.id });
    expect(stats.totalProxyBytes).toBe(2000);

    // Bytes metered as the provider ends its sessions at close are stored before the database closes.
    lastBytes.push({ providerSessionId: session.providerSessionId, bytes: 42 });
    const closing = composed;
    composed = undefined;
    await closing.close();
    expect(events).toEqual(['provider closed']);
    const reopened = await createBrowserdeck({
      dataDir: dir,
      database: { url: `sqlite:${join(dir, 'db.sqlite')}` },
      identity: {
        provider: new InMemoryIdentityProvider({ ids: new UuidV7Generator(), clock: new SystemClock() }),
      },
      browsers: { provider: new FakeBrowserProvider({ clock: new SystemClock(), instanceId: 'solo' }) },
      secretKey: 'a passphrase for this test only',
      logger: pino({ level: 'silent' }),
      reconcileIntervalSec: 86_400,
    });
    composed = reopened;
    expect((await reopened.storage.sessions.findInProject(project.id, session.id))?.proxyBytes).toBe(2042);
  });
});
