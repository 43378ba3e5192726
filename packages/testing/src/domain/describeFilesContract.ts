import { describe, expect, it } from 'vitest';
import {
  type BrowserProviderFixture,
  providerContractFixture,
  UNKNOWN_PROVIDER_SESSION_ID,
} from './providerContractFixture.ts';

/** `text` (ASCII) as one chunk. */
async function* bytesOf(text: string): AsyncIterable<Uint8Array> {
  yield Uint8Array.from(text, (c) => c.charCodeAt(0));
}

/**
 * Behaviour of a provider's `files` capability (http-api.md §5): a file uploaded to a running session
 * is stored under its name with its size and a path the page can take; a running session's
 * downloads are a stream; an unknown session has neither (null).
 */
export function describeFilesContract(
  name: string,
  options: { create: () => Promise<BrowserProviderFixture> },
): void {
  describe(`Provider files contract: ${name}`, () => {
    const { setUp, createBrowser } = providerContractFixture(options.create);

    it('stores an uploaded file for a running session, under its name, with its size and a path', async () => {
      const { provider, request } = await setUp();
      const { files } = provider.capabilities;
      expect(files).toBeDefined();
      const created = await createBrowser(provider, request);
      const stored = await files?.upload(created.providerSessionId, {
        name: 'contract.txt',
        content: bytesOf('twelve bytes'),
      });
      expect(stored).toMatchObject({ name: 'contract.txt', size: 12 });
      expect(stored?.path).toMatch(/contract\.txt$/);
    });

    it('answers a running session’s downloads as a stream', async () => {
      const { provider, request } = await setUp();
      const created = await createBrowser(provider, request);
      const archive = await provider.capabilities.files?.downloads(created.providerSessionId);
      expect(archive).not.toBeNull();
      expect(typeof archive?.[Symbol.asyncIterator]).toBe('function');
      for await (const chunk of archive ?? []) expect(chunk).toBeInstanceOf(Uint8Array);
    });

    it('answers null for a session it does not know, for downloads and uploads alike', async () => {
      const { provider } = await setUp();
      const { files } = provider.capabilities;
      expect(await files?.downloads(UNKNOWN_PROVIDER_SESSION_ID)).toBeNull();
      expect(
        await files?.upload(UNKNOWN_PROVIDER_SESSION_ID, { name: 'x.txt', content: bytesOf('x') }),
      ).toBeNull();
    });
  });
}
