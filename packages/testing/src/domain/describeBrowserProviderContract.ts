import type { BrowserProvider, CreateBrowserRequest, ProviderSessionSnapshot } from '@browserdeck/domain';
import { isTerminalStatus, SESSION_STATUSES } from '@browserdeck/domain';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { browserRequest } from './browserRequest.ts';

/** A provider for one contract test, what to create browsers with, and how to clean it up. */
export interface BrowserProviderFixture {
  provider: BrowserProvider;
  /** Overrides of the create request (e.g. a region or project the test account has). */
  request?: Partial<CreateBrowserRequest>;
  /** Stops whatever the fixture started (local browsers, mock servers). */
  dispose?(): Promise<void>;
}

/** A provider session id no provider has handed out. */
const UNKNOWN_ID = '00000000-0000-4000-8000-00000000dead';

/** How long a provider may take to report a released session as over. */
const RELEASE_WAIT_MS = 5_000;

/**
 * Behaviour every `BrowserProvider` must have (http-api.md §7): create, get, release (idempotent), logs,
 * and unknown sessions answered with null. Browsers a test created are released afterwards.
 */
export function describeBrowserProviderContract(
  name: string,
  options: { create: () => Promise<BrowserProviderFixture> },
): void {
  describe(`BrowserProvider contract: ${name}`, () => {
    let fixture: BrowserProviderFixture | undefined;
    const started: string[] = [];
    let seq = 0;

    afterEach(async () => {
      const current = fixture;
      fixture = undefined;
      if (!current) return;
      for (const id of started.splice(0)) await current.provider.release(id).catch(() => {});
      await current.dispose?.();
    });

    async function setUp(): Promise<{ provider: BrowserProvider; request: CreateBrowserRequest }> {
      fixture = await options.create();
      const { provider } = fixture;
      seq++;
      const request = browserRequest({
        sessionId: `0190f000-0000-7000-8000-${String(seq).padStart(12, '0')}`,
        projectId: '0190f000-0000-7000-8000-0000000000a1',
        providerProjectId: provider.defaultProviderProjectId,
        region: provider.regions[0] ?? '',
        ...fixture.request,
      });
      return { provider, request };
    }

    async function createBrowser(provider: BrowserProvider, request: CreateBrowserRequest) {
      const snapshot = await provider.create(request);
      started.push(snapshot.providerSessionId);
      return snapshot;
    }

    /** What `get` says once the provider reports the session over (some end sessions asynchronously). */
    function eventuallyOver(provider: BrowserProvider, id: string): Promise<ProviderSessionSnapshot | null> {
      return vi.waitFor(
        async () => {
          const snapshot = await provider.get(id);
          if (snapshot && !isTerminalStatus(snapshot.status)) throw new Error(`still ${snapshot.status}`);
          return snapshot;
        },
        { timeout: RELEASE_WAIT_MS, interval: 100 },
      );
    }

    it('names itself and lists its regions, the one create uses among them', async () => {
      const { provider, request } = await setUp();
      expect(provider.name).toMatch(/^[a-z][a-z0-9-]*$/);
      expect(provider.regions.length).toBeGreaterThan(0);
      expect(provider.regions).toContain(request.region);
      expect(provider.defaultProviderProjectId.length).toBeGreaterThan(0);
    });

    it('starts a browser: an active snapshot with an id, a connect URL and a start time', async () => {
      const { provider, request } = await setUp();
      const snapshot = await createBrowser(provider, request);
      expect(['RUNNING', 'PENDING']).toContain(snapshot.status);
      expect(typeof snapshot.providerSessionId).toBe('string');
      expect(snapshot.providerSessionId.length).toBeGreaterThan(0);
      expect(typeof snapshot.connectUrl).toBe('string');
      expect(snapshot.connectUrl.length).toBeGreaterThan(0);
      expect(snapshot.providerProjectId.length).toBeGreaterThan(0);
      expect(snapshot.startedAt).toBeInstanceOf(Date);
      expect(Number.isNaN(snapshot.startedAt.getTime())).toBe(false);
      expect(snapshot.endedAt).toBeNull();
    });

    it('reports a browser it started under the same id', async () => {
      const { provider, request } = await setUp();
      const created = await createBrowser(provider, request);
      const got = await provider.get(created.providerSessionId);
      expect(got?.providerSessionId).toBe(created.providerSessionId);
      expect(SESSION_STATUSES).toContain(got?.status);
      expect(got?.startedAt).toBeInstanceOf(Date);
    });

    it('ends a released browser, and a second release does not throw', async () => {
      const { provider, request } = await setUp();
      const created = await createBrowser(provider, request);
      const released = await provider.release(created.providerSessionId);
      if (released) expect(released.providerSessionId).toBe(created.providerSessionId);
      const after = await eventuallyOver(provider, created.providerSessionId);
      if (after) expect(isTerminalStatus(after.status)).toBe(true);
      // Releasing again is harmless: it resolves (to the ended snapshot or null).
      const again = await provider.release(created.providerSessionId);
      if (again) expect(isTerminalStatus(again.status)).toBe(true);
    });

    it('stamps its instanceId on every snapshot when it has one, and none otherwise', async () => {
      const { provider, request } = await setUp();
      const created = await createBrowser(provider, request);
      const got = await provider.get(created.providerSessionId);
      const released = await provider.release(created.providerSessionId);
      const expected = provider.instanceId ?? null;
      if (provider.instanceId !== undefined) expect(provider.instanceId.length).toBeGreaterThan(0);
      for (const snapshot of [created, got, released]) {
        if (snapshot) expect(snapshot.instanceId ?? null).toBe(expected);
      }
    });

    it('answers null for a session it does not know', async () => {
      const { provider } = await setUp();
      expect(await provider.get(UNKNOWN_ID)).toBeNull();
      expect(await provider.release(UNKNOWN_ID)).toBeNull();
    });

    it('returns a session’s logs as an array of entries', async () => {
      const { provider, request } = await setUp();
      const created = await createBrowser(provider, request);
      const logs = await provider.logs(created.providerSessionId);
      expect(Array.isArray(logs)).toBe(true);
      for (const entry of logs) {
        expect(typeof entry.timestamp).toBe('number');
        expect(typeof entry.method).toBe('string');
      }
    });
  });
}
