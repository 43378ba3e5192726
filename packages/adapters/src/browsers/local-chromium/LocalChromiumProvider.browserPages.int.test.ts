import type { SessionExtension } from '@browserdeck/domain';
import { extensionZip, manifestJson } from '@browserdeck/testing/adapters';
import {
  browserRequest,
  type EventedCdp,
  eventedCdp,
  startLocalProvider,
} from '@browserdeck/testing/local-chromium';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { opensBrowserPage } from '../cdp/opensBrowserPage.ts';
import type { LocalChromiumProvider } from './LocalChromiumProvider.ts';

// Issue 34, item 5: a client's new-document script ran in chrome://extensions, where its extension
// had sent its tab, before the provider closed it, and turned the extension's file: access back on
// through chrome.developerPrivate. Every wait here is for an event: the outcome never depends on who
// wins a race.

/** Where a blocked navigation lands: Chromium's error page, which carries no private API. */
const ERROR_PAGE = 'chrome-error://chromewebdata/';

/** An extension with a service worker, driven by the client as Stagehand drives its own. */
async function makeTabsExtension(): Promise<SessionExtension> {
  const archive = await extensionZip({
    'manifest.json': manifestJson({
      name: 'Browserdeck Tabs',
      permissions: ['tabs'],
      host_permissions: ['<all_urls>'],
      background: { service_worker: 'worker.js' },
    }),
    'worker.js': 'self.ready = true;',
  });
  return { id: 'ext-tabs', name: 'Browserdeck Tabs', archive, providerExtensionId: null };
}

/** The review's script: says where it runs (before anything else), then uses developerPrivate if there. */
const tenantScript = (extensionId: string) => `
  __deckSeen(JSON.stringify({ href: location.href, developerPrivate: typeof globalThis.chrome?.developerPrivate }));
  globalThis.chrome?.developerPrivate?.updateExtensionConfiguration({ extensionId: '${extensionId}', fileAccess: true });
`;

interface Seen {
  readonly href: string;
  readonly developerPrivate: string;
}

/** The documents that were one of the browser's own pages, or had their private API. */
const browserPages = (seen: readonly Seen[]) =>
  seen.filter(
    (s) => (opensBrowserPage(s.href) && s.href !== ERROR_PAGE) || s.developerPrivate !== 'undefined',
  );

/** Attaches to the extension's worker once it has a context; returns how to evaluate there, and its id. */
async function driveWorker(cdp: EventedCdp) {
  const created = await cdp.next(
    (e) => e.method === 'Target.targetCreated' && e.params.targetInfo.type === 'service_worker',
  );
  const { targetId, url } = created.params.targetInfo;
  const sessionId = (await cdp.call('Target.attachToTarget', { targetId, flatten: true })).result.sessionId;
  const context = cdp.next(
    (e) => e.method === 'Runtime.executionContextCreated' && e.sessionId === sessionId,
  );
  await cdp.call('Runtime.enable', {}, sessionId);
  await context;
  return {
    evaluate: (expression: string) => cdp.evaluate(expression, sessionId),
    extensionId: new URL(url).host,
  };
}

/** Arms a page session as the review did: a binding to report through, and the new-document script. */
async function armPage(cdp: EventedCdp, sessionId: string, extensionId: string): Promise<void> {
  await cdp.call('Page.enable', {}, sessionId);
  await cdp.call('Runtime.enable', {}, sessionId);
  await cdp.call('Runtime.addBinding', { name: '__deckSeen' }, sessionId);
  await cdp.call('Page.addScriptToEvaluateOnNewDocument', { source: tenantScript(extensionId) }, sessionId);
}

/** Waits until the armed page's next document reports or the page goes; returns what reported. */
async function documentsSeen(cdp: EventedCdp, sessionId: string): Promise<Seen[]> {
  const reported = (e: { method: string; sessionId?: string }) =>
    e.method === 'Runtime.bindingCalled' && e.sessionId === sessionId;
  await cdp.next((e) => reported(e) || cdp.detached(e, sessionId));
  return cdp.events.filter(reported).map((e) => JSON.parse(e.params.payload) as Seen);
}

/**
 * Every target the client can attach to and evaluate in (Chromium's own UI included: `filter`
 * matches all types), by what it shows: those showing one of the browser's own pages (its error
 * page included: a blocked page left open), and the pages.
 */
async function scriptableBrowserPages(cdp: EventedCdp) {
  const { targetInfos } = (await cdp.call('Target.getTargets', { filter: [{}] })).result as {
    targetInfos: Array<{ targetId: string; type: string; url: string }>;
  };
  const shown: string[] = [];
  for (const target of targetInfos.filter((t) => t.type !== 'tab')) {
    const attached = await cdp.call('Target.attachToTarget', { targetId: target.targetId, flatten: true });
    // A target the provider closed meanwhile has nothing left to run a script in.
    if (attached.error) continue;
    const href = await cdp.evaluate('location.href', attached.result.sessionId).catch(() => null);
    if (typeof href === 'string' && opensBrowserPage(href)) shown.push(`${target.type} ${href}`);
  }
  return { browserPages: shown, pages: targetInfos.filter((t) => t.type === 'page').map((t) => t.url) };
}

const FILE_ACCESS = 'new Promise((r) => chrome.extension.isAllowedFileSchemeAccess(r))';

describe('LocalChromiumProvider: no client script runs in one of the browser’s own pages (real Chromium)', () => {
  let started: Awaited<ReturnType<typeof startLocalProvider>>;
  let provider: LocalChromiumProvider;
  let tabsExtension: SessionExtension;

  beforeAll(async () => {
    tabsExtension = await makeTabsExtension();
    started = await startLocalProvider();
    provider = started.provider;
  }, 60_000);

  afterAll(() => started?.close());

  const withSession = async (
    run: (cdp: EventedCdp) => Promise<void>,
    extension: SessionExtension | null = tabsExtension,
  ) => {
    const session = await provider.create(
      browserRequest(extension ? { extensionId: extension.id, extension } : {}),
    );
    const cdp = await eventedCdp(session.connectUrl);
    try {
      await cdp.call('Target.setDiscoverTargets', { discover: true });
      await run(cdp);
    } finally {
      cdp.close();
      await provider.release(session.providerSessionId);
    }
  };

  it('a new-document script on its tab never runs in chrome://extensions its extension sends the tab to (chrome.tabs.update)', async () => {
    await withSession(async (cdp) => {
      const worker = await driveWorker(cdp);
      const page = await cdp.next(
        (e) => e.method === 'Target.targetCreated' && e.params.targetInfo.type === 'page',
      );
      const { targetId } = page.params.targetInfo;
      const tab = (await cdp.call('Target.attachToTarget', { targetId, flatten: true })).result.sessionId;
      await armPage(cdp, tab, worker.extensionId);
      const sent = await worker.evaluate(`chrome.tabs.query({}).then(async (tabs) => {
        if (tabs.length !== 1) return tabs.length + ' tabs';
        await chrome.tabs.update(tabs[0].id, { url: 'chrome://extensions' });
        return 'sent';
      })`);
      expect(sent).toBe('sent');

      expect(browserPages(await documentsSeen(cdp, tab))).toEqual([]);
      expect(await worker.evaluate(FILE_ACCESS)).toBe(false);
    });
  }, 60_000);

  it('nor in one it opens (chrome.tabs.create) while the client holds the new tab at its start (auto-attach)', async () => {
    await withSession(async (cdp) => {
      const worker = await driveWorker(cdp);
      await cdp.call('Target.setAutoAttach', {
        autoAttach: true,
        waitForDebuggerOnStart: true,
        flatten: true,
      });
      const known = new Set(cdp.events.map((e) => e.params.targetInfo?.targetId));
      expect(
        await worker.evaluate("chrome.tabs.create({ url: 'chrome://extensions' }).then(() => 'opened')"),
      ).toBe('opened');
      const created = await cdp.next(
        (e) =>
          e.method === 'Target.targetCreated' &&
          e.params.targetInfo.type === 'page' &&
          !known.has(e.params.targetInfo.targetId),
      );
      const { targetId } = created.params.targetInfo;
      const outcome = await cdp.next(
        (e) =>
          (e.method === 'Target.attachedToTarget' && e.params.targetInfo.targetId === targetId) ||
          (e.method === 'Target.targetDestroyed' && e.params.targetId === targetId),
      );
      if (outcome.method === 'Target.attachedToTarget') {
        const tab = outcome.params.sessionId as string;
        await armPage(cdp, tab, worker.extensionId);
        await cdp.call('Runtime.runIfWaitingForDebugger', {}, tab);
        expect(browserPages(await documentsSeen(cdp, tab))).toEqual([]);
      }
      expect(await worker.evaluate(FILE_ACCESS)).toBe(false);
    });
  }, 60_000);

  it('shows the client no target with one of those pages to script (the browser’s own UI included), and one page', async () => {
    await withSession(async (cdp) => {
      await driveWorker(cdp);
      expect(await scriptableBrowserPages(cdp)).toEqual({ browserPages: [], pages: ['about:blank'] });
    });
  }, 60_000);

  it('nor without an extension, on the main build (a full Chromium under CHROMIUM_PATH=/usr/bin/chromium)', async () => {
    await withSession(async (cdp) => {
      expect(await scriptableBrowserPages(cdp)).toEqual({ browserPages: [], pages: ['about:blank'] });
    }, null);
  }, 60_000);
});
