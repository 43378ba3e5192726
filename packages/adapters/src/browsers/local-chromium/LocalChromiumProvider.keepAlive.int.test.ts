import { browserRequest, eventually, startLocalProvider } from '@browserdeck/testing/local-chromium';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalChromiumProvider } from './LocalChromiumProvider.ts';
import { DISCONNECT_GRACE_MS } from './session/LocalBrowserSession.ts';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('LocalChromiumProvider: keepAlive and viewport (real Chromium)', () => {
  let started: Awaited<ReturnType<typeof startLocalProvider>>;
  let provider: LocalChromiumProvider;

  beforeAll(async () => {
    started = await startLocalProvider({ maxSessions: 4, maxSessionsPerOwner: 3, warmBrowsers: 1 });
    provider = started.provider;
  });

  afterAll(() => started?.close());

  it('ends a session without keepAlive when its client closes, keeps one with it, and one whose client comes back', async () => {
    const ending = await provider.create(browserRequest({ keepAlive: false }));
    const returning = await provider.create(browserRequest({ keepAlive: false }));
    const kept = await provider.create(browserRequest({ keepAlive: true }));
    const statusOf = async (id: string) => (await provider.get(id))?.status;
    try {
      for (const session of [ending, returning, kept]) {
        const browser = await chromium.connectOverCDP(session.connectUrl);
        expect(await browser.contexts()[0]!.pages()[0]!.evaluate('1 + 1')).toBe(2);
        // Playwright's close() of a CDP connection closes the WebSocket; the browser keeps running.
        await browser.close();
      }
      // Back within the grace: the session is kept, and stays so while this client is connected.
      await pause(DISCONNECT_GRACE_MS / 4);
      const again = await chromium.connectOverCDP(returning.connectUrl);
      try {
        await eventually(async () => (await statusOf(ending.providerSessionId)) === 'COMPLETED', 10_000);
        const ended = await provider.get(ending.providerSessionId);
        expect(ended?.endedAt).toBeInstanceOf(Date);
        // The browser is gone: its connect URL answers 409 session_ended from now on.
        await expect(chromium.connectOverCDP(ending.connectUrl, { timeout: 5_000 })).rejects.toThrow(/409/);
        await pause(DISCONNECT_GRACE_MS + 500);
        expect(await statusOf(returning.providerSessionId)).toBe('RUNNING');
        expect(await statusOf(kept.providerSessionId)).toBe('RUNNING');
      } finally {
        await again.close();
      }
      await eventually(async () => (await statusOf(returning.providerSessionId)) === 'COMPLETED', 10_000);
      expect(await statusOf(kept.providerSessionId)).toBe('RUNNING');
    } finally {
      for (const session of [ending, returning, kept]) await provider.release(session.providerSessionId);
    }
  });

  it('frees the project’s share as soon as a session reads as ended, before its browser is gone', async () => {
    const held = [];
    for (let i = 0; i < 3; i++) held.push(await provider.create(browserRequest({ keepAlive: true })));
    const releasing = provider.release(held[0]!.providerSessionId);
    try {
      // The browser is still stopping, but the session already reads COMPLETED.
      expect((await provider.get(held[0]!.providerSessionId))?.status).toBe('COMPLETED');
      held.push(await provider.create(browserRequest({ keepAlive: true })));
    } finally {
      await releasing;
      for (const session of held) await provider.release(session.providerSessionId);
    }
  });

  it('gives the default page, and a new one in the default context, the requested viewport', async () => {
    await provider.warmPoolSettled();
    // At least LOCAL_WARM_BROWSERS; more when the creates before found none ready (the pool grows).
    const warm = provider.usage.warm;
    expect(warm).toBeGreaterThanOrEqual(1);
    const session = await provider.create(browserRequest({ viewport: { width: 1024, height: 700 } }));
    // A warm browser has Chromium's default window (800×600): this session launched its own (with
    // every slot warm, one warm browser gave its slot up for it).
    expect(provider.usage.warm).toBe(warm === 4 ? 3 : warm);
    const browser = await chromium.connectOverCDP(session.connectUrl);
    try {
      const context = browser.contexts()[0]!;
      const size = '[innerWidth, innerHeight]';
      expect(await context.pages()[0]!.evaluate(size)).toEqual([1024, 700]);
      expect(await (await context.newPage()).evaluate(size)).toEqual([1024, 700]);
    } finally {
      await browser.close();
      await provider.release(session.providerSessionId);
    }
  });
});
