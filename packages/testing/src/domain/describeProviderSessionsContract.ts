import type { BrowserProvider, ProviderSessionSnapshot } from '@browserdeck/domain';
import { isTerminalStatus, SESSION_STATUSES } from '@browserdeck/domain';
import { describe, expect, it, vi } from 'vitest';
import {
  type BrowserProviderFixture,
  providerContractFixture,
  UNKNOWN_PROVIDER_SESSION_ID,
} from './providerContractFixture.ts';

/** How long a provider may take to report a released session as over. */
const RELEASE_WAIT_MS = 5_000;

/**
 * Behaviour of every provider's `sessions` core (http-api.md §7): create, get, release
 * (idempotent), logs, and unknown sessions answered with null. Browsers a test created are
 * released afterwards.
 */
export function describeProviderSessionsContract(
  name: string,
  options: { create: () => Promise<BrowserProviderFixture> },
): void {
  describe(`Provider sessions contract: ${name}`, () => {
    const { setUp, createBrowser } = providerContractFixture(options.create);

    /** What `get` says once the provider reports the session over (some end sessions asynchronously). */
    function eventuallyOver(provider: BrowserProvider, id: string): Promise<ProviderSessionSnapshot | null> {
      return vi.waitFor(
        async () => {
          const snapshot = await provider.sessions.get(id);
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
      const got = await provider.sessions.get(created.providerSessionId);
      expect(got?.providerSessionId).toBe(created.providerSessionId);
      expect(SESSION_STATUSES).toContain(got?.status);
      expect(got?.startedAt).toBeInstanceOf(Date);
    });

    it('ends a released browser, and a second release does not throw', async () => {
      const { provider, request } = await setUp();
      const created = await createBrowser(provider, request);
      const released = await provider.sessions.release(created.providerSessionId);
      if (released) expect(released.providerSessionId).toBe(created.providerSessionId);
      const after = await eventuallyOver(provider, created.providerSessionId);
      if (after) expect(isTerminalStatus(after.status)).toBe(true);
      // Releasing again is harmless: it resolves (to the ended snapshot or null).
      const again = await provider.sessions.release(created.providerSessionId);
      if (again) expect(isTerminalStatus(again.status)).toBe(true);
    });

    it('answers null for a session it does not know', async () => {
      const { provider } = await setUp();
      expect(await provider.sessions.get(UNKNOWN_PROVIDER_SESSION_ID)).toBeNull();
      expect(await provider.sessions.release(UNKNOWN_PROVIDER_SESSION_ID)).toBeNull();
    });

    it('returns a session’s logs as an array of entries', async () => {
      const { provider, request } = await setUp();
      const created = await createBrowser(provider, request);
      const logs = await provider.sessions.logs(created.providerSessionId);
      expect(Array.isArray(logs)).toBe(true);
      for (const entry of logs) {
        expect(typeof entry.timestamp).toBe('number');
        expect(typeof entry.method).toBe('string');
      }
    });
  });
}
