import { describe, expect, it } from 'vitest';
import { type BrowserProviderFixture, providerContractFixture } from './providerContractFixture.ts';

/**
 * Behaviour of a provider's `placement` capability: with one, every snapshot it hands out carries
 * its instance id (create, get, release); without one, none does.
 */
export function describePlacementContract(
  name: string,
  options: { create: () => Promise<BrowserProviderFixture> },
): void {
  describe(`Provider placement contract: ${name}`, () => {
    const { setUp, createBrowser } = providerContractFixture(options.create);

    it('stamps its placement’s instanceId on every snapshot when it has one, and none otherwise', async () => {
      const { provider, request } = await setUp();
      const created = await createBrowser(provider, request);
      const got = await provider.sessions.get(created.providerSessionId);
      const released = await provider.sessions.release(created.providerSessionId);
      const { placement } = provider.capabilities;
      const expected = placement?.instanceId ?? null;
      if (placement !== undefined) expect(placement.instanceId.length).toBeGreaterThan(0);
      for (const snapshot of [created, got, released]) {
        if (snapshot) expect(snapshot.instanceId ?? null).toBe(expected);
      }
    });
  });
}
