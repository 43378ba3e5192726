import { givenSessionWorld } from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { asUser } from '../access/Caller.ts';
import type { HarDocument } from '../providers/ProviderCapabilities.ts';
import { GetSessionHar } from './GetSessionHar.ts';

/** A provider's network capability that answers one HAR per session and records what it was asked. */
function fakeNetwork(hars: Map<string, HarDocument>) {
  const asked: Array<{ providerSessionId: string; sensitive: boolean }> = [];
  return {
    asked,
    network: {
      async har(providerSessionId: string, options: { sensitive: boolean }) {
        asked.push({ providerSessionId, sensitive: options.sensitive });
        return hars.get(providerSessionId) ?? null;
      },
    },
  };
}

const HAR: HarDocument = { log: { version: '1.2', entries: [] } };

describe('GetSessionHar', () => {
  it('answers the provider’s HAR of the session, redacted unless asked otherwise', async () => {
    const w = await givenSessionWorld();
    const session = await w.startSession();
    const { asked, network } = fakeNetwork(new Map([[session.providerSessionId, HAR]]));
    w.provider.capabilities = { network };
    const har = new GetSessionHar(w);
    const input = { caller: w.owner, projectId: w.project.id, sessionId: session.id };
    expect(await har.execute(input)).toBe(HAR);
    expect(await har.execute({ ...input, sensitive: true })).toBe(HAR);
    expect(asked).toEqual([
      { providerSessionId: session.providerSessionId, sensitive: false },
      { providerSessionId: session.providerSessionId, sensitive: true },
    ]);
  });

  it('lets a viewer read it redacted only: sensitive values need a developer', async () => {
    const w = await givenSessionWorld();
    const session = await w.startSession();
    const { asked, network } = fakeNetwork(new Map([[session.providerSessionId, HAR]]));
    w.provider.capabilities = { network };
    await w.members.add({ projectId: w.project.id, userId: 'viewer-1', role: 'viewer', now: w.clock.now() });
    const input = { caller: asUser('viewer-1'), projectId: w.project.id, sessionId: session.id };
    const har = new GetSessionHar(w);
    expect(await har.execute(input)).toBe(HAR);
    await expect(har.execute({ ...input, sensitive: true })).rejects.toMatchObject({
      code: 'forbidden_for_role',
    });
    expect(asked).toEqual([{ providerSessionId: session.providerSessionId, sensitive: false }]);
  });

  it('is not_found without a kept capture or for a non-member, and not_implemented at a provider without capture', async () => {
    const w = await givenSessionWorld();
    const session = await w.startSession();
    const input = { caller: w.owner, projectId: w.project.id, sessionId: session.id };
    w.provider.capabilities = { network: undefined };
    await expect(new GetSessionHar(w).execute(input)).rejects.toMatchObject({
      code: 'not_implemented',
      message: expect.stringMatching(/does not capture/),
    });
    w.provider.capabilities = { network: fakeNetwork(new Map()).network };
    await expect(new GetSessionHar(w).execute(input)).rejects.toMatchObject({
      code: 'not_found',
      message: expect.stringMatching(/No network capture/),
    });
    await expect(
      new GetSessionHar(w).execute({ ...input, caller: asUser('someone-else') }),
    ).rejects.toMatchObject({ code: 'not_found' });
  });
});
