import { randomUUID } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { SystemClock } from '@browserdeck/domain';
import {
  browserRequest,
  makeScratchDir,
  requireChromium,
  startConnectServer,
  startPageServer,
} from '@browserdeck/testing/local-chromium';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InMemoryBlobStore } from '../shared-state/InMemoryBlobStore.ts';
import { InMemoryContextRecords } from '../shared-state/InMemoryContextRecords.ts';
import { LocalChromiumProvider } from './LocalChromiumProvider.ts';

/**
 * SPEC §16: two local providers (two instances, each with its own data folder) on one shared store of
 * context records and blobs. A profile saved through one opens on the other; a session that saves
 * holds the context on both; the store keeps one blob per context, its last save.
 */
/** Projects are UUIDs in the database; the folder import takes only such names. */
const UPGRADED_PROJECT = '0190e000-0000-7000-8000-0000000000a4';

describe('LocalChromiumProvider: contexts shared by two instances (real Chromium)', () => {
  const records = new InMemoryContextRecords();
  const blobs = new InMemoryBlobStore();
  let scratch: Awaited<ReturnType<typeof makeScratchDir>>;
  let pages: Awaited<ReturnType<typeof startPageServer>>;
  const servers: Awaited<ReturnType<typeof startConnectServer>>[] = [];
  const providers: LocalChromiumProvider[] = [];

  beforeAll(async () => {
    await requireChromium();
    scratch = await makeScratchDir();
    pages = await startPageServer();
    for (const name of ['a', 'b']) {
      const connect = await startConnectServer();
      const provider = new LocalChromiumProvider({
        publicUrl: connect.publicUrl,
        dataDir: join(scratch.dir, name),
        tempDir: scratch.dir,
        instanceId: `instance-${name}`,
        ...{ maxSessions: 3, maxSessionsPerOwner: 3, warmBrowsers: 0 },
        egress: { allow: ['127.0.0.1/32'] },
        clock: new SystemClock(),
        contextRecords: records,
        blobs,
      });
      connect.attach(provider);
      await provider.start();
      servers.push(connect);
      providers.push(provider);
    }
  });

  afterAll(async () => {
    await Promise.all(providers.map((p) => p.close()));
    await Promise.all(servers.map((s) => s.close()));
    await pages?.close();
    await scratch?.remove();
  });

  const request = (contextId: string, contextPersist = true) =>
    browserRequest({ sessionId: randomUUID(), contextId, contextPersist });
  const cookies = async (connectUrl: string, set?: string) => {
    const browser = await chromium.connectOverCDP(connectUrl);
    try {
      const page = await browser.contexts()[0]!.newPage();
      if (set) await page.goto(`${pages.url}/set-cookie?value=${set}`);
      await page.goto(`${pages.url}/cookies`);
      return await page.textContent('body');
    } finally {
      await browser.close();
    }
  };

  it('opens on one instance the profile a session saved on the other, and holds it on both while saving', async () => {
    const [a, b] = providers as [LocalChromiumProvider, LocalChromiumProvider];
    const context = await a.contexts.create('project-1');
    expect(await b.contexts.get('project-1', context.id)).toMatchObject({ id: context.id });

    const writer = await a.create(request(context.id));
    expect(await cookies(writer.connectUrl, 'from-a')).toBe('deck=from-a');
    // Held on every instance while it saves: no session on it anywhere, no delete.
    for (const persist of [true, false])
      await expect(b.create(request(context.id, persist))).rejects.toMatchObject({
        code: 'provider_rate_limited',
      });
    await expect(b.contexts.delete('project-1', context.id)).rejects.toMatchObject({
      code: 'context_in_use',
    });
    await a.release(writer.providerSessionId);

    // Stored once the release answered: B opens it from the store, with A's cookie.
    const saved = await records.get('project-1', context.id);
    expect(saved).toMatchObject({ holder: null, version: expect.any(String) });
    expect(saved!.size).toBeGreaterThan(0);
    const onB = await b.create(request(context.id));
    expect(await cookies(onB.connectUrl)).toBe('deck=from-a');
    expect(await cookies(onB.connectUrl, 'from-b')).toBe('deck=from-b');
    await b.release(onB.providerSessionId);

    // A had the first save unpacked: it opens the newer one, and forgets the older.
    const reader = await a.create(request(context.id, false));
    expect(await cookies(reader.connectUrl)).toBe('deck=from-b');
    await a.release(reader.providerSessionId);
    const cached = await readdir(
      join(scratch.dir, 'a', 'context-cache', 'instance-a', 'contexts', 'project-1', context.id),
    );
    expect(cached).toEqual([(await records.get('project-1', context.id))!.version]);
    // One blob per context: its last save.
    expect(blobs.keys().filter((key) => key.includes(context.id))).toEqual([
      `contexts/project-1/${context.id}/${(await records.get('project-1', context.id))!.version}`,
    ]);

    expect(await b.contexts.delete('project-1', context.id)).toBe(true);
    expect(await a.contexts.get('project-1', context.id)).toBeNull();
    expect(blobs.keys().filter((key) => key.includes(context.id))).toEqual([]);
  });

  it('makes the context a session names on first use, on any instance, within the project’s limit', async () => {
    const [a, b] = providers as [LocalChromiumProvider, LocalChromiumProvider];
    const named = await a.create(
      browserRequest({ sessionId: randomUUID(), projectId: 'project-3', contextId: 'login' }),
    );
    expect(await cookies(named.connectUrl, 'named')).toBe('deck=named');
    await a.release(named.providerSessionId);
    expect(await b.contexts.get('project-3', 'login')).toMatchObject({ id: 'login', projectId: 'project-3' });
    const again = await b.create(
      browserRequest({ sessionId: randomUUID(), projectId: 'project-3', contextId: 'login' }),
    );
    expect(await cookies(again.connectUrl)).toBe('deck=named');
    await b.release(again.providerSessionId);

    for (let i = 1; i < 100; i++)
      await records.create({ id: `filler-${i}`, projectId: 'project-3', createdAt: new Date() }, 100);
    await expect(
      b.create(browserRequest({ sessionId: randomUUID(), projectId: 'project-3', contextId: 'one-more' })),
    ).rejects.toMatchObject({ code: 'context_limit_reached' });
    expect(await records.get('project-3', 'one-more')).toBeNull();
  });

  it('lets go of a context when the create is refused after the hold', async () => {
    const [a] = providers as [LocalChromiumProvider];
    const context = await a.contexts.create('project-1');
    // The account's share is 3: three sessions fill it, the fourth is refused after taking the hold.
    const fillers = await Promise.all(
      [0, 1, 2].map(() => a.create(browserRequest({ sessionId: randomUUID() }))),
    );
    await expect(a.create(request(context.id))).rejects.toMatchObject({ code: 'provider_rate_limited' });
    expect(await records.get('project-1', context.id)).toMatchObject({ holder: null });
    await Promise.all(fillers.map((s) => a.release(s.providerSessionId)));
  });

  it('keeps the last save when a profile is larger than the bound, and frees the context', async () => {
    const connect = await startConnectServer();
    const small = new LocalChromiumProvider({
      publicUrl: connect.publicUrl,
      dataDir: join(scratch.dir, 'small'),
      tempDir: scratch.dir,
      instanceId: 'instance-small',
      ...{ maxSessions: 1, warmBrowsers: 0 },
      egress: { allow: ['127.0.0.1/32'] },
      clock: new SystemClock(),
      contextRecords: records,
      blobs,
      contextMaxBytes: 1024,
    });
    connect.attach(small);
    await small.start();
    try {
      const context = await small.contexts.create('project-1');
      const writer = await small.create(request(context.id));
      await cookies(writer.connectUrl, 'too-big');
      await small.release(writer.providerSessionId);
      expect(await records.get('project-1', context.id)).toMatchObject({
        holder: null,
        version: null,
        size: 0,
      });
    } finally {
      await small.close();
      await connect.close();
    }
  });

  it('stores the profile folders an earlier version kept in the data folder as their contexts’ first save', async () => {
    const dataDir = join(scratch.dir, 'upgraded');
    const make = (shared: boolean, connect: Awaited<ReturnType<typeof startConnectServer>>) =>
      new LocalChromiumProvider({
        publicUrl: connect.publicUrl,
        dataDir,
        tempDir: scratch.dir,
        instanceId: 'instance-upgraded',
        ...{ maxSessions: 1, warmBrowsers: 0 },
        egress: { allow: ['127.0.0.1/32'] },
        clock: new SystemClock(),
        ...(shared ? { contextRecords: records, blobs } : {}),
      });
    const connect = await startConnectServer();
    try {
      // Before: contexts were folders of the data folder.
      const before = make(false, connect);
      connect.attach(before);
      await before.start();
      const writer = await before.create(
        browserRequest({ sessionId: randomUUID(), projectId: UPGRADED_PROJECT, contextId: 'kept' }),
      );
      await cookies(writer.connectUrl, 'from-a-folder');
      await before.release(writer.providerSessionId);
      await before.close();
      expect(await readdir(join(dataDir, 'contexts', UPGRADED_PROJECT))).toEqual(['kept']);

      const after = make(true, connect);
      connect.attach(after);
      await after.start();
      try {
        expect(await records.get(UPGRADED_PROJECT, 'kept')).toMatchObject({
          version: expect.any(String),
          holder: null,
        });
        await expect(readdir(join(dataDir, 'contexts'))).resolves.toEqual([]);
        const [b] = providers as [LocalChromiumProvider];
        const reader = await b.create(
          browserRequest({ sessionId: randomUUID(), projectId: UPGRADED_PROJECT, contextId: 'kept' }),
        );
        expect(await cookies(reader.connectUrl)).toBe('deck=from-a-folder');
        await b.release(reader.providerSessionId);
      } finally {
        await after.close();
      }
    } finally {
      await connect.close();
    }
  });
});
