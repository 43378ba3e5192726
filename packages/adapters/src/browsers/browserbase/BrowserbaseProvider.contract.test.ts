// nock is loaded before the Browserbase SDK (see testing/browserbaseTestKit.ts).
import { ProviderError } from '@browserdeck/domain';
import {
  browserRequest,
  describeBrowserContextStoreContract,
  describeBrowserProviderContract,
} from '@browserdeck/testing';
import { fakeBrowserbaseApi } from '@browserdeck/testing/browserbase';
import nock from 'nock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserbaseProvider } from './BrowserbaseProvider.ts';

const BASE = 'https://api.browserbase.test';
const API_KEY = 'bb_test_contract_key';

beforeAll(() => nock.disableNetConnect());
afterAll(() => nock.enableNetConnect());

/** A provider on the nock fake, with fast read retries. */
const providerOnFake = () =>
  new BrowserbaseProvider({
    apiKey: API_KEY,
    projectId: '9d1b7c42-8e0a-4f3b-b6d5-2c7e1a0f4b98',
    baseUrl: BASE,
    readRetryDelayMs: 1,
  });

describeBrowserProviderContract('BrowserbaseProvider (nock fake of the Browserbase API)', {
  create: async () => {
    const api = fakeBrowserbaseApi(BASE, API_KEY);
    const provider = providerOnFake();
    return { provider, dispose: async () => api.stop() };
  },
});

describeBrowserContextStoreContract('BrowserbaseProvider.contexts (nock fake of the Browserbase API)', {
  create: async () => {
    const api = fakeBrowserbaseApi(BASE, API_KEY);
    const provider = providerOnFake();
    return {
      contexts: provider.contexts,
      // Browserbase refuses to delete a context a running session uses (409).
      occupy: async (_projectId, contextId) => {
        api.busyContexts.add(contextId);
        return async () => {
          api.busyContexts.delete(contextId);
        };
      },
      dispose: async () => api.stop(),
    };
  },
});

describe('fakeBrowserbaseApi', () => {
  it('refuses a request without the API key (so the contract run proves the provider sends it)', async () => {
    const api = fakeBrowserbaseApi(BASE, API_KEY);
    const provider = new BrowserbaseProvider({
      apiKey: 'another-key',
      projectId: 'p',
      baseUrl: BASE,
      readRetries: 0,
    });
    const id = (
      await new BrowserbaseProvider({ apiKey: API_KEY, projectId: 'p', baseUrl: BASE }).create(request())
    ).providerSessionId;
    // Unmatched, nock answers 501 (or refuses the connection): either way, not the session.
    await expect(provider.get(id)).rejects.toBeInstanceOf(ProviderError);
    api.stop();
  });

  it('answers live-view URLs for its sessions in Browserbase’s shape, and 404 for others', async () => {
    const api = fakeBrowserbaseApi(BASE, API_KEY);
    const provider = providerOnFake();
    const { providerSessionId: id } = await provider.create(request());
    const live = await provider.liveUrls(id);
    expect(live).toEqual({
      debuggerUrl: expect.stringContaining(`/debug/${id}/`),
      debuggerFullscreenUrl: expect.stringMatching(/^https:\/\/www\.browserbase\.com\/devtools-fullscreen\//),
      wsUrl: expect.stringMatching(new RegExp(`^wss://.+/debug/${id}/`)),
      pages: [expect.objectContaining({ id: expect.any(String), url: 'about:blank' })],
    });
    expect(await provider.liveUrls('00000000-0000-4000-8000-000000000000')).toBeNull();
    api.stop();
  });
});

function request() {
  return browserRequest({ sessionId: 's', projectId: 'p', providerProjectId: 'p' });
}
