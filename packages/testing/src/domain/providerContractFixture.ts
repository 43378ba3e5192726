import type { BrowserProvider, CreateBrowserRequest, ProviderSessionSnapshot } from '@browserdeck/domain';
import { afterEach } from 'vitest';
import { browserRequest } from './browserRequest.ts';

/** A provider for one contract test, what to create browsers with, and how to clean it up. */
export interface BrowserProviderFixture {
  provider: BrowserProvider;
  /** Overrides of the create request (e.g. a region or project the test account has). */
  request?: Partial<CreateBrowserRequest>;
  /** Stops whatever the fixture started (local browsers, mock servers). */
  dispose?(): Promise<void>;
}

/**
 * The set-up every provider contract suite shares, registered in the calling `describe`: a fresh
 * fixture per test, a create request for it, and the browsers the test started released (and the
 * fixture disposed) after it.
 */
export function providerContractFixture(create: () => Promise<BrowserProviderFixture>) {
  let fixture: BrowserProviderFixture | undefined;
  const started: string[] = [];
  let seq = 0;

  afterEach(async () => {
    const current = fixture;
    fixture = undefined;
    if (!current) return;
    for (const id of started.splice(0)) await current.provider.sessions.release(id).catch(() => {});
    await current.dispose?.();
  });

  return {
    async setUp(): Promise<{ provider: BrowserProvider; request: CreateBrowserRequest }> {
      fixture = await create();
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
    },
    /** Starts a browser, released after the test. */
    async createBrowser(
      provider: BrowserProvider,
      request: CreateBrowserRequest,
    ): Promise<ProviderSessionSnapshot> {
      const snapshot = await provider.sessions.create(request);
      started.push(snapshot.providerSessionId);
      return snapshot;
    },
  };
}

/** A provider session id no provider has handed out. */
export const UNKNOWN_PROVIDER_SESSION_ID = '00000000-0000-4000-8000-00000000dead';
