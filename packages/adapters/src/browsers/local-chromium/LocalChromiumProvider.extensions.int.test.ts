import { once } from 'node:events';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { SessionExtension } from '@browserdeck/domain';
import { extensionZip, manifestJson } from '@browserdeck/testing/adapters';
import { browserRequest, startLocalProvider, startPageServer } from '@browserdeck/testing/local-chromium';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { EXTENSION_DIR_NAME } from './extensions/stageExtension.ts';
import type { LocalChromiumProvider } from './LocalChromiumProvider.ts';

/** An extension whose content script marks every page it runs in, with a service worker. */
async function markingExtension(manifest: Record<string, unknown> = {}): Promise<SessionExtension> {
  const archive = await extensionZip({
    'manifest.json': manifestJson({
      name: 'Browserdeck Marker',
      host_permissions: ['<all_urls>'],
      background: { service_worker: 'worker.js' },
      content_scripts: [{ matches: ['<all_urls>'], js: ['mark.js'], run_at: 'document_start' }],
      ...manifest,
    }),
    'mark.js': "document.documentElement.dataset.browserdeck = 'marked';",
    'worker.js': 'self.ready = true;',
  });
  return { id: 'ext-1', name: 'Browserdeck Marker', archive, providerExtensionId: null };
}

/** A raw CDP client on a `connectUrl`: `call` resolves with the whole answer (result or error). */
async function rawCdp(url: string) {
  const ws = new WebSocket(url);
  await once(ws, 'open');
  let nextId = 1;
  const call = (method: string, params: Record<string, unknown> = {}, sessionId?: string) =>
    new Promise<{ result?: Record<string, unknown>; error?: { code: number; message: string } }>(
      (resolve) => {
        const id = nextId++;
        const onMessage = (data: WebSocket.RawData) => {
          const message = JSON.parse(String(data));
          if (message.id !== id || message.sessionId !== sessionId) return;
          ws.off('message', onMessage);
          resolve(message);
        };
        ws.on('message', onMessage);
        ws.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
      },
    );
  return { call, close: () => ws.close() };
}

describe('LocalChromiumProvider: a session’s extension (real Chromium)', () => {
  let started: Awaited<ReturnType<typeof startLocalProvider>>;
  let provider: LocalChromiumProvider;
  let pages: Awaited<ReturnType<typeof startPageServer>>;

  beforeAll(async () => {
    pages = await startPageServer();
    // The page server is on loopback, which the egress proxy refuses unless allowed.
    started = await startLocalProvider({ egress: { allow: ['127.0.0.1/32'] }, warmBrowsers: 1 });
    provider = started.provider;
    await provider.warmPoolSettled();
  }, 60_000);

  afterAll(async () => {
    await started?.close();
    await pages?.close();
  });

  it('loads it unpacked, cold, into the session’s own profile: its content script marks the page Playwright sees', async () => {
    expect(provider.capabilities.accepts?.extensions).toBe(true);
    const extension = await markingExtension();
    const session = await provider.create(browserRequest({ extensionId: extension.id, extension }));
    try {
      // The warm browser (the headless shell, without the extension) was left alone.
      expect(provider.usage.warm).toBe(1);
      const { profileDir } = provider.inspect(session.providerSessionId)!;
      expect((await stat(join(profileDir, EXTENSION_DIR_NAME, 'manifest.json'))).isFile()).toBe(true);

      const browser = await chromium.connectOverCDP(session.connectUrl);
      try {
        const page = browser.contexts()[0]!.pages()[0] ?? (await browser.contexts()[0]!.newPage());
        await page.goto(pages.url);
        expect(await page.evaluate('document.documentElement.dataset.browserdeck')).toBe('marked');
      } finally {
        await browser.close();
      }
    } finally {
      await provider.release(session.providerSessionId);
    }
  }, 60_000);

  it('lists it over connectUrl without host paths, shows its worker to attach to, and refuses every other Extensions command', async () => {
    const extension = await markingExtension();
    const session = await provider.create(browserRequest({ extensionId: extension.id, extension }));
    const cdp = await rawCdp(session.connectUrl);
    try {
      const listed = await cdp.call('Extensions.getExtensions');
      const extensions = listed.result!.extensions as Array<Record<string, unknown>>;
      expect(extensions).toHaveLength(1);
      const id = extensions[0]!.id as string;
      expect(extensions[0]).toEqual({
        id,
        name: 'Browserdeck Marker',
        version: '1.0.0',
        path: `/extensions/${id}`,
        enabled: true,
      });

      const loaded = await cdp.call('Extensions.loadUnpacked', { path: '/tmp' });
      expect(loaded.error?.message).toMatch(/Extensions domain is not on the allowlist/);
      const uninstalled = await cdp.call('Extensions.uninstall', { id });
      expect(uninstalled.error?.code).toBe(-32601);

      // Its service worker, found and driven as Stagehand 4 drives its own.
      let worker: { targetId: string; url: string } | undefined;
      for (let i = 0; i < 100 && !worker; i++) {
        const targets = await cdp.call('Target.getTargets');
        worker = (targets.result!.targetInfos as Array<{ targetId: string; type: string; url: string }>).find(
          (t) => t.type === 'service_worker' && t.url === `chrome-extension://${id}/worker.js`,
        );
        if (!worker) await new Promise((r) => setTimeout(r, 100));
      }
      expect(worker).toBeDefined();
      const attached = await cdp.call('Target.attachToTarget', { targetId: worker!.targetId, flatten: true });
      const sessionId = attached.result!.sessionId as string;
      expect((await cdp.call('Runtime.enable', {}, sessionId)).error).toBeUndefined();
      expect(
        (await cdp.call('Runtime.addBinding', { name: '__deckToHost' }, sessionId)).error,
      ).toBeUndefined();
      const evaluate = async (expression: string) =>
        (
          await cdp.call(
            'Runtime.evaluate',
            { expression, awaitPromise: true, returnByValue: true },
            sessionId,
          )
        ).result?.result as { value?: unknown };
      expect((await evaluate('chrome.runtime.id')).value).toBe(id);
      // Unpacked extensions read file: URLs by default; ours may not (nor a client through them).
      expect(
        (await evaluate('new Promise((r) => chrome.extension.isAllowedFileSchemeAccess(r))')).value,
      ).toBe(false);
      expect((await evaluate("fetch('file:///etc/passwd').then(() => 'read', () => 'refused')")).value).toBe(
        'refused',
      );
      expect(
        (
          await evaluate(
            "chrome.tabs.create({ url: 'file:///etc/passwd' }).then(() => 'opened', (e) => String(e.message))",
          )
        ).value,
      ).toMatch(/file URL/);

      // Its pages open; the extensions page does not (its API could widen what the extension may do).
      const opened = await cdp.call('Target.createTarget', { url: `chrome-extension://${id}/mark.js` });
      expect(opened.result?.targetId).toEqual(expect.any(String));
      const refused = await cdp.call('Target.createTarget', { url: 'chrome://extensions' });
      expect(refused.error?.message).toMatch(/chrome:\/\/extensions/);
      // Opened by the extension itself, it is closed at once by the provider.
      expect(
        (await evaluate("chrome.tabs.create({ url: 'chrome://extensions' }).then(() => 'opened')")).value,
      ).toBe('opened');
      let extensionsPages = 1;
      for (let i = 0; i < 50 && extensionsPages > 0; i++) {
        await new Promise((r) => setTimeout(r, 100));
        const targets = await cdp.call('Target.getTargets');
        extensionsPages = (targets.result!.targetInfos as Array<{ url: string }>).filter((t) =>
          t.url.startsWith('chrome://extensions'),
        ).length;
      }
      expect(extensionsPages).toBe(0);
    } finally {
      cdp.close();
      await provider.release(session.providerSessionId);
    }
  }, 60_000);

  it('refuses an extension asking for the proxy permission (it could route around the egress proxy), starting nothing', async () => {
    const extension = await markingExtension({ permissions: ['proxy'] });
    await expect(
      provider.create(browserRequest({ extensionId: extension.id, extension })),
    ).rejects.toMatchObject({
      code: 'unsupported_option',
      message: expect.stringMatching(/"proxy" permission/),
    });
    expect(provider.usage.sessions).toBe(0);
  }, 60_000);

  it('refuses an extension Chromium will not load (extension_invalid), starting nothing', async () => {
    const extension = await markingExtension({ minimum_chrome_version: '999' });
    await expect(
      provider.create(browserRequest({ extensionId: extension.id, extension })),
    ).rejects.toMatchObject({
      code: 'extension_invalid',
      message: expect.stringMatching(/^Chromium did not load the extension/),
    });
    expect(provider.usage.sessions).toBe(0);
  }, 60_000);
});

describe('LocalChromiumProvider without a Chromium that loads extensions', () => {
  it('says so (loadsExtensions false) and refuses a create with one, saying what to install', async () => {
    const started = await startLocalProvider({ extensionsChromiumPath: null });
    try {
      expect(started.provider.capabilities.accepts?.extensions).toBe(false);
      const extension = await markingExtension();
      await expect(
        started.provider.create(browserRequest({ extensionId: extension.id, extension })),
      ).rejects.toMatchObject({
        code: 'unsupported_option',
        message: expect.stringContaining('apt-get install chromium'),
      });
    } finally {
      await started.close();
    }
  }, 60_000);
});
