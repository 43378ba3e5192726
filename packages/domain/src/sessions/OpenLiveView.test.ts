import { describe, expect, it } from 'vitest';
import { givenSessionWorld } from '../testing/givenSessionWorld.ts';
import { givenTwoInstances } from '../testing/givenTwoInstances.ts';
import type { BrowserProvider } from './BrowserProvider.ts';
import { GetSessionLiveView } from './GetSessionLiveView.ts';
import { issueLiveViewToken } from './liveViewToken.ts';
import { CHECKSUM_CURSOR_SIGNER, type CursorSigner } from './logCursor.ts';
import { OpenLiveView } from './OpenLiveView.ts';
import { ReleaseSession } from './ReleaseSession.ts';

const keyed = (secret: string): CursorSigner => ({
  sign: (text) => CHECKSUM_CURSOR_SIGNER.sign(`${secret}|${text}`).repeat(6),
});
const signer = keyed('secret');

async function setUp(world?: Awaited<ReturnType<typeof givenSessionWorld>>) {
  const w = world ?? (await givenSessionWorld());
  const session = await w.startSession();
  const second = await w.startSession();
  const issue = async (sessionId = session.id) => {
    const view = await new GetSessionLiveView({ ...w, signer }).execute({
      caller: w.owner,
      projectId: w.project.id,
      sessionId,
    });
    if (view.kind !== 'browserdeck') throw new Error('expected a token');
    return view.token;
  };
  const open = (token: string | undefined, sessionId = session.id, provider: BrowserProvider = w.provider) =>
    new OpenLiveView({ ...w, provider, signer }).execute({ sessionId, token });
  return { ...w, session, second, issue, open };
}

const UNAUTHORIZED = { code: 'unauthorized', message: 'The live-view token is missing, invalid or expired.' };

describe('OpenLiveView', () => {
  it('admits a fresh token for its session and answers the session', async () => {
    const { issue, open, session } = await setUp();
    const admitted = await open(await issue());
    expect(admitted.id).toBe(session.id);
    expect(admitted.providerSessionId).toBe(session.providerSessionId);
  });

  it('admits the token until its expiry and refuses it from then on (the clock decides)', async () => {
    const { issue, open, clock } = await setUp();
    const token = await issue();
    clock.advance(3600_000 - 1000);
    expect((await open(token)).isActive).toBe(true);
    clock.advance(1000);
    await expect(open(token)).rejects.toMatchObject(UNAUTHORIZED);
  });

  it('refuses a token for another session, a tampered or foreign token and none, all alike', async () => {
    const { issue, open, second, session, project, clock } = await setUp();
    const token = await issue();
    const [payload, tag] = token.split('.') as [string, string];
    const forged = issueLiveViewToken(keyed('guess'), {
      sessionId: session.id,
      projectId: project.id,
      expiresAt: new Date(clock.now().getTime() + 60_000),
    });
    await expect(open(token, second.id)).rejects.toMatchObject(UNAUTHORIZED);
    await expect(open(`${payload}.${tag.slice(1)}a`)).rejects.toMatchObject(UNAUTHORIZED);
    await expect(open(`${payload.slice(0, -2)}.${tag}`)).rejects.toMatchObject(UNAUTHORIZED);
    await expect(open(forged)).rejects.toMatchObject(UNAUTHORIZED);
    await expect(open('')).rejects.toMatchObject(UNAUTHORIZED);
    await expect(open(undefined)).rejects.toMatchObject(UNAUTHORIZED);
    // The other session's own token still opens it.
    expect((await open(await issue(second.id), second.id)).id).toBe(second.id);
  });

  it('refuses a good token with session_ended once the session has ended', async () => {
    const w = await setUp();
    const token = await w.issue();
    await new ReleaseSession(w).execute({
      caller: w.owner,
      projectId: w.project.id,
      sessionId: w.session.id,
    });
    await expect(w.open(token)).rejects.toMatchObject({ code: 'session_ended' });
    // An expired token says nothing about the session.
    w.clock.advance(3600_000);
    await expect(w.open(token)).rejects.toMatchObject(UNAUTHORIZED);
  });

  it('is not_found for a good token whose session is gone', async () => {
    const w = await setUp();
    const token = issueLiveViewToken(signer, {
      sessionId: '00000000-0000-7000-8000-000000000000',
      projectId: w.project.id,
      expiresAt: new Date(w.clock.now().getTime() + 60_000),
    });
    await expect(w.open(token, '00000000-0000-7000-8000-000000000000')).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('is session_on_other_instance on an instance that does not hold the browser', async () => {
    const world = await givenTwoInstances();
    const { other } = world;
    const { issue, open, session } = await setUp(world);
    const token = await issue();
    await expect(open(token, session.id, other)).rejects.toMatchObject({ code: 'session_on_other_instance' });
    expect((await open(token)).id).toBe(session.id);
  });
});
