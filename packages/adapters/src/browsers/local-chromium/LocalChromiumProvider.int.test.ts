import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { type ProviderError, type SessionLogEntry, SystemClock, ValidationError } from '@browserdeck/domain';
import {
  browserRequest,
  makeScratchDir,
  requireChromium,
  startConnectServer,
  startPageServer,
  upgradeStatus,
} from '@browserdeck/testing/local-chromium';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalChromiumProvider } from './LocalChromiumProvider.ts';
import { TEMP_PROFILE_PREFIX } from './profiles/TemporaryProfiles.ts';

describe('LocalChromiumProvider: connecting, logs, contexts (real Chromium)', () => {
  let scratch: Awaited<ReturnType<typeof makeScratchDir>>;
  let connect: Awaited<ReturnType<typeof startConnectServer>>;
  let pages: Awaited<ReturnType<typeof startPageServer>>;
  let provider: LocalChromiumProvider;

  beforeAll(async () => {
    await requireChromium();
    scratch = await makeScratchDir();
    connect = await startConnectServer();
    pages = await startPageServer();
    provider = new LocalChromiumProvider({
      publicUrl: connect.publicUrl,
      dataDir: scratch.dir,
      tempDir: scratch.dir,
      maxSessions: 3,
      maxSessionsPerOwner: 3,
      warmBrowsers: 1,
      // The page server is on loopback, which the egress proxy refuses unless allowed.
      egress: { allow: ['127.0.0.1/32'] },
      clock: new SystemClock(),
    });
    connect.attach(provider);
    await provider.start();
  });

  afterAll(async () => {
    await provider?.close();
    await connect?.close();
    await pages?.close();
    await scratch?.remove();
  });

  it('drives a page through connectUrl, records its console message and request, and cuts it on release', async () => {
    const session = await provider.create(browserRequest());
    expect(session).toMatchObject({ status: 'RUNNING', endedAt: null });
    expect(session.connectUrl).toMatch(
      new RegExp(
        `^ws://127\\.0\\.0\\.1:\\d+/v1/local/sessions/${session.providerSessionId}/connect\\?signingKey=[\\w-]{43}$`,
      ),
    );
    const browser = await chromium.connectOverCDP(session.connectUrl);
    const disconnected = new Promise<void>((resolve) => browser.once('disconnected', () => resolve()));
    const page = await browser.contexts()[0]!.newPage();
    await page.goto(pages.url);
    await expect.poll(() => page.textContent('#out')).toBe('data loaded');

    await expect
      .poll(async () => (await provider.logs(session.providerSessionId)).map((l) => l.method))
      .toContain('Runtime.exceptionThrown');
    const logs = await provider.logs(session.providerSessionId);
    const thrown = logs.find((l) => l.method === 'Runtime.exceptionThrown');
    expect(JSON.stringify(thrown?.request?.params)).toContain('deck page failure');
    const consoleEntry = logs.find((l) => l.method === 'Runtime.consoleAPICalled');
    expect(consoleEntry?.request?.params).toMatchObject({
      type: 'log',
      args: [{ value: 'hello from the deck page' }],
    });
    const fetched = logs.find(
      (l) => l.method === 'Network.requestWillBeSent' && requestOf(l)?.url.endsWith('/data.json'),
    );
    expect(fetched).toMatchObject({
      pageId: expect.any(Number),
      frameId: expect.any(String),
      loaderId: expect.any(String),
    });
    const received = logs.find(
      (l) => l.method === 'Network.responseReceived' && responseOf(l)?.url.endsWith('/data.json'),
    );
    expect(received && responseOf(received)?.status).toBe(200);
    expect(received?.pageId).toBe(fetched?.pageId);
    expect(logs.map((l) => l.timestamp)).toEqual([...logs.map((l) => l.timestamp)].sort((a, b) => a - b));

    const released = await provider.release(session.providerSessionId);
    expect(released).toMatchObject({ status: 'COMPLETED', endedAt: expect.any(Date) });
    await disconnected;
    expect(await upgradeStatus(session.connectUrl)).toBe(409);
    await expect(chromium.connectOverCDP(session.connectUrl, { timeout: 10_000 })).rejects.toThrow();
    expect(await provider.get(session.providerSessionId)).toMatchObject({ status: 'COMPLETED' });
    expect((await provider.logs(session.providerSessionId)).length).toBe(logs.length);
    expect(await provider.release(session.providerSessionId)).toEqual(released);
  });

  it('refuses a forged or missing key (401), an unknown session (404), and leaves other paths to the host', async () => {
    const session = await provider.create(browserRequest());
    const url = new URL(session.connectUrl);
    expect(await upgradeStatus(session.connectUrl)).toBe(101);
    url.searchParams.set('signingKey', 'A'.repeat(43));
    expect(await upgradeStatus(url.toString())).toBe(401);
    url.search = '';
    expect(await upgradeStatus(url.toString())).toBe(401);
    const unknown = session.connectUrl.replace(
      session.providerSessionId,
      '00000000-0000-4000-8000-000000000000',
    );
    expect(await upgradeStatus(unknown)).toBe(404);
    // The test server destroys upgrades the provider declines: no HTTP status at all.
    await expect(upgradeStatus(`${connect.publicUrl.replace('http', 'ws')}/v1/other`)).rejects.toThrow();
    await provider.release(session.providerSessionId);
    expect(await provider.get('never-heard-of-it')).toBeNull();
    expect(await provider.release('never-heard-of-it')).toBeNull();
  });

  it("keeps the host's files out of reach: no file: URLs, no host-reaching commands", async () => {
    const session = await provider.create(browserRequest());
    const browser = await chromium.connectOverCDP(session.connectUrl);
    const page = await browser.contexts()[0]!.newPage();
    await expect(page.goto('file:///etc/hostname')).rejects.toThrow();
    const cdp = await browser.newBrowserCDPSession();
    await expect(cdp.send('Target.createTarget', { url: 'file:///etc/hostname' })).rejects.toThrow(
      /may not open file: URLs/,
    );
    await expect(
      cdp.send('Extensions.loadUnpacked' as 'Browser.getVersion', { path: '/tmp' } as never),
    ).rejects.toThrow(/is not allowed/);
    // A page cannot reach file: either, whichever client opened it.
    await page.goto(pages.url);
    expect(
      await page.evaluate(() =>
        fetch('file:///etc/hostname').then(
          () => 'read',
          () => 'refused',
        ),
      ),
    ).toBe('refused');
    await provider.release(session.providerSessionId);
  });

  it('isolates concurrent sessions: a cookie set in one is absent in the other', async () => {
    const [a, b] = await Promise.all([provider.create(browserRequest()), provider.create(browserRequest())]);
    const [browserA, browserB] = await Promise.all([
      chromium.connectOverCDP(a.connectUrl),
      chromium.connectOverCDP(b.connectUrl),
    ]);
    const pageA = await browserA.contexts()[0]!.newPage();
    await pageA.goto(`${pages.url}/set-cookie?value=only-in-a`);
    await pageA.goto(`${pages.url}/cookies`);
    expect(await pageA.textContent('body')).toBe('deck=only-in-a');
    const pageB = await browserB.contexts()[0]!.newPage();
    await pageB.goto(`${pages.url}/cookies`);
    expect(await pageB.textContent('body')).toBe('');
    await Promise.all([provider.release(a.providerSessionId), provider.release(b.providerSessionId)]);
  });

  it('keeps a context profile across sessions that save to it, and one that does not leaves it untouched', async () => {
    const context = await provider.contexts.create('project-1');
    const contextId = context.id;
    const writer = await provider.create(browserRequest({ contextId }));
    const cookies = async (connectUrl: string, set?: string) => {
      const page = await (await chromium.connectOverCDP(connectUrl)).contexts()[0]!.newPage();
      if (set) await page.goto(`${pages.url}/set-cookie?value=${set}`);
      await page.goto(`${pages.url}/cookies`);
      return page.textContent('body');
    };
    expect(await cookies(writer.connectUrl, 'survives')).toBe('deck=survives');
    // A writer holds the context alone: no second session on it, no copy of it, no delete.
    for (const contextPersist of [true, false])
      await expect(provider.create(browserRequest({ contextId, contextPersist }))).rejects.toMatchObject({
        code: 'provider_rate_limited',
      });
    await expect(provider.contexts.delete('project-1', contextId)).rejects.toMatchObject({
      code: 'context_in_use',
    });
    await provider.release(writer.providerSessionId);

    const reader = await provider.create(browserRequest({ contextId, contextPersist: false }));
    const copy = provider.inspect(reader.providerSessionId)!.profileDir;
    expect(copy.startsWith(join(scratch.dir, TEMP_PROFILE_PREFIX))).toBe(true);
    expect(await cookies(reader.connectUrl)).toBe('deck=survives');
    expect(await cookies(reader.connectUrl, 'not-saved')).toBe('deck=not-saved');
    // A session that does not save holds nothing: a writer starts beside it.
    const next = await provider.create(browserRequest({ contextId }));
    await provider.release(reader.providerSessionId);
    await expect(stat(copy)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await cookies(next.connectUrl)).toBe('deck=survives');
    await provider.release(next.providerSessionId);

    const stored = await provider.contexts.get('project-1', contextId);
    expect(stored).toMatchObject({ id: contextId, projectId: 'project-1' });
    expect(stored!.updatedAt.getTime()).toBeGreaterThan(context.updatedAt.getTime());
    expect(await provider.contexts.get('project-2', contextId)).toBeNull();
    expect(await provider.contexts.get('project-1', 'no-such-context')).toBeNull();
    expect(await provider.contexts.delete('project-1', 'no-such-context')).toBe(false);
    expect(await provider.contexts.delete('project-1', contextId)).toBe(true);
    await expect(stat(join(scratch.dir, 'contexts', 'project-1', contextId))).rejects.toMatchObject({
      code: 'ENOENT',
    });
  });

  it('refuses a contextId that could leave the contexts folder', async () => {
    for (const contextId of ['../escape', 'a/b', '.', '', 'x'.repeat(129)]) {
      const error = (await provider.create(browserRequest({ contextId })).catch((e) => e)) as ProviderError;
      expect(error).toBeInstanceOf(ValidationError);
      expect(error.errors).toEqual([{ path: 'contextId', message: expect.any(String) }]);
    }
  });
});

function requestOf(entry: SessionLogEntry): { url: string } | undefined {
  return entry.request?.params?.request as { url: string } | undefined;
}

function responseOf(entry: SessionLogEntry): { url: string; status: number } | undefined {
  return entry.response?.result?.response as { url: string; status: number } | undefined;
}
