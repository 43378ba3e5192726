import { browserRequest, eventually, startLocalProvider } from '@browserdeck/testing/local-chromium';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CdpBrowserMessage } from '../cdp/cdpMessages.ts';
import type { CdpCapability, CdpCapabilityConnection } from '../ProviderCapabilities.ts';
import type { LocalChromiumProvider } from './LocalChromiumProvider.ts';
import { DISCONNECT_GRACE_MS } from './session/LocalBrowserSession.ts';

/** An in-process client of the `cdp` capability that awaits its answers and counts its closes. */
async function openClient(cdp: CdpCapability, providerSessionId: string) {
  const answers = new Map<number, (message: CdpBrowserMessage) => void>();
  let closes = 0;
  const connection = await cdp.open(
    providerSessionId,
    (message) => {
      if (message.id !== undefined) answers.get(message.id)?.(message);
    },
    () => closes++,
  );
  let nextId = 1;
  const call = (method: string, params: Record<string, unknown> = {}, sessionId?: string) =>
    new Promise<CdpBrowserMessage>((resolve) => {
      const id = nextId++;
      answers.set(id, resolve);
      connection!.send({ id, method, params, ...(sessionId === undefined ? {} : { sessionId }) });
    });
  return { connection: connection as CdpCapabilityConnection | null, call, closes: () => closes };
}

describe('LocalChromiumProvider: the cdp capability (real Chromium)', () => {
  let started: Awaited<ReturnType<typeof startLocalProvider>>;
  let provider: LocalChromiumProvider;
  let cdp: CdpCapability;

  beforeAll(async () => {
    started = await startLocalProvider();
    provider = started.provider;
    cdp = provider.capabilities.cdp!;
  });

  afterAll(() => started?.close());

  it('opens an in-process client that evaluates in the page, under the connect policy', async () => {
    const session = await provider.create(browserRequest());
    try {
      const client = await openClient(cdp, session.providerSessionId);
      expect(client.connection).not.toBeNull();
      const { result: targets } = await client.call('Target.getTargets');
      const page = (targets!.targetInfos as Array<{ targetId: string; type: string }>).find(
        (t) => t.type === 'page',
      )!;
      const attached = await client.call('Target.attachToTarget', { targetId: page.targetId, flatten: true });
      const sessionId = attached.result!.sessionId as string;
      const evaluated = await client.call('Runtime.evaluate', { expression: '6 * 7' }, sessionId);
      expect(evaluated.result).toEqual({ result: { type: 'number', value: 42, description: '42' } });

      // The policy the connect proxy applies: refused with its rule, never reaching the browser.
      const denied = await client.call('Browser.executeBrowserCommand', { commandId: 'openTabSearch' });
      expect(denied.error).toEqual({
        code: -32601,
        message: 'Browserdeck: Browser.executeBrowserCommand is not allowed (runs browser UI commands).',
      });
      const fileUrl = await client.call('Page.navigate', { url: 'file:///etc/passwd' }, sessionId);
      expect(fileUrl.error?.message).toBe('Browserdeck: Page.navigate may not open file: URLs.');
      expect(fileUrl.sessionId).toBe(sessionId);
      const location = await client.call('Runtime.evaluate', { expression: 'location.href' }, sessionId);
      expect((location.result!.result as { value: string }).value).toBe('about:blank');
      const nested = await client.call('Target.attachToTarget', { targetId: page.targetId });
      expect(nested.error?.code).toBe(-32602);
      client.connection!.close();
      expect(client.connection!.isClosed).toBe(true);
      expect(client.closes()).toBe(1);
    } finally {
      await provider.release(session.providerSessionId);
    }
  });

  it('answers null for a session it does not run, or no longer runs', async () => {
    expect(
      await cdp.open(
        'no-such-session',
        () => {},
        () => {},
      ),
    ).toBeNull();
    const session = await provider.create(browserRequest());
    await provider.release(session.providerSessionId);
    expect(
      await cdp.open(
        session.providerSessionId,
        () => {},
        () => {},
      ),
    ).toBeNull();
  });

  it('is closed when its session ends', async () => {
    const session = await provider.create(browserRequest());
    const client = await openClient(cdp, session.providerSessionId);
    await provider.release(session.providerSessionId);
    expect(client.connection!.isClosed).toBe(true);
    expect(client.closes()).toBe(1);
  });

  it('does not keep a session without keepAlive alive once its last connected client left', async () => {
    const session = await provider.create(browserRequest({ keepAlive: false }));
    const statusOf = async () => (await provider.get(session.providerSessionId))?.status;
    try {
      const client = await openClient(cdp, session.providerSessionId);
      const browser = await chromium.connectOverCDP(session.connectUrl);
      expect(await browser.contexts()[0]!.pages()[0]!.evaluate('1 + 1')).toBe(2);
      await browser.close();
      // The in-process client is still open, and answering, while the grace runs out.
      const version = await client.call('Browser.getVersion');
      expect(version.result?.product).toMatch(/Chrome/);
      await eventually(async () => (await statusOf()) === 'COMPLETED', DISCONNECT_GRACE_MS + 10_000);
      expect(client.connection!.isClosed).toBe(true);
      expect(client.closes()).toBe(1);
    } finally {
      await provider.release(session.providerSessionId);
    }
  });

  it('does not start the disconnect grace on its own: a session only it ever used keeps running', async () => {
    const session = await provider.create(browserRequest({ keepAlive: false }));
    try {
      const client = await openClient(cdp, session.providerSessionId);
      client.connection!.close();
      await new Promise((resolve) => setTimeout(resolve, DISCONNECT_GRACE_MS + 500));
      expect((await provider.get(session.providerSessionId))?.status).toBe('RUNNING');
    } finally {
      await provider.release(session.providerSessionId);
    }
  });
});
