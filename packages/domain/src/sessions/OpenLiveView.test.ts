import {
  anApiKey,
  givenSessionWorld,
  givenTwoInstances,
  InMemoryApiKeyRepository,
} from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { type ApiKeyCaller, asUser, type Caller, signedIn } from '../access/Caller.ts';
import type { BrowserProvider } from '../providers/BrowserProvider.ts';
import { CheckLiveViewGrant } from './CheckLiveViewGrant.ts';
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
  const apiKeys = new InMemoryApiKeyRepository();
  /** Sign-in sessions that have ended; the stand-in identity provider knows only the owner's. */
  const endedSignIns = new Set<string>();
  const identity = {
    isSignInActive: async (signIn: { userId: string; sessionId: string }) =>
      signIn.userId === w.ownerId && !endedSignIns.has(signIn.sessionId),
  };
  const user = signedIn({
    userId: w.ownerId,
    email: 'owner@example.com',
    sessionId: 'sign-in-1',
    expiresAt: new Date(w.clock.now().getTime() + 900_000),
  });
  const key = anApiKey({
    id: 'key-1',
    projectId: w.project.id,
    ownerId: w.ownerId,
    expiresAt: new Date(w.clock.now().getTime() + 7200_000),
    now: w.clock.now(),
  });
  await apiKeys.add(key);
  const keyCaller: ApiKeyCaller = {
    kind: 'apiKey',
    keyId: key.id,
    keyName: key.name,
    role: 'developer',
    projectId: w.project.id,
  };
  const deps = { ...w, apiKeys, identity, signer };
  const issue = async (sessionId = session.id, caller: Caller = user, readOnly?: boolean) => {
    const view = await new GetSessionLiveView(deps).execute({
      caller,
      projectId: w.project.id,
      sessionId,
      readOnly,
    });
    if (view.kind !== 'browserdeck') throw new Error('expected a token');
    return view.token;
  };
  const open = (
    token: string | undefined,
    sessionId = session.id,
    provider: BrowserProvider = w.provider,
    readOnly?: boolean,
  ) => new OpenLiveView({ ...deps, provider }).execute({ sessionId, token, readOnly });
  const setArchived = async (archived: boolean) => {
    const project = (await w.projects.findAccess(w.project.id, w.ownerId))?.project;
    if (!project) throw new Error('no project');
    if (archived) project.archive(w.clock.now());
    else project.restore(w.clock.now());
    await w.projects.update(project);
  };
  const revokeKey = async () => {
    const stored = await apiKeys.findInProject(w.project.id, key.id);
    stored?.revoke(w.clock.now());
    if (stored) await apiKeys.saveRevocation(stored);
  };
  const check = new CheckLiveViewGrant(deps);
  return {
    ...w,
    session,
    second,
    issue,
    open,
    user,
    keyCaller,
    endedSignIns,
    setArchived,
    revokeKey,
    check,
  };
}

const UNAUTHORIZED = { code: 'unauthorized', message: 'The live-view token is missing, invalid or expired.' };

describe('OpenLiveView', () => {
  it('admits a fresh token for its session and answers the session', async () => {
    const { issue, open, session } = await setUp();
    const admitted = await open(await issue());
    expect(admitted.session.id).toBe(session.id);
    expect(admitted.session.providerSessionId).toBe(session.providerSessionId);
    expect(admitted.readOnly).toBe(false);
    expect(admitted.claims.credential).toEqual({ kind: 'signIn', signInId: 'sign-in-1' });
  });

  it('admits the token until its expiry and refuses it from then on (the clock decides)', async () => {
    const { issue, open, clock } = await setUp();
    const token = await issue();
    clock.advance(3600_000 - 1000);
    expect((await open(token)).session.isActive).toBe(true);
    clock.advance(1000);
    await expect(open(token)).rejects.toMatchObject(UNAUTHORIZED);
  });

  it('refuses a token for another session, a tampered or foreign token and none, all alike', async () => {
    const { issue, open, second, session, project, clock, ownerId } = await setUp();
    const token = await issue();
    const [payload, tag] = token.split('.') as [string, string];
    const forged = issueLiveViewToken(keyed('guess'), {
      sessionId: session.id,
      projectId: project.id,
      userId: ownerId,
      credential: { kind: 'owner' },
      readOnly: false,
      expiresAt: new Date(clock.now().getTime() + 60_000),
    });
    await expect(open(token, second.id)).rejects.toMatchObject(UNAUTHORIZED);
    await expect(open(`${payload}.${tag.slice(1)}a`)).rejects.toMatchObject(UNAUTHORIZED);
    await expect(open(`${payload.slice(0, -2)}.${tag}`)).rejects.toMatchObject(UNAUTHORIZED);
    await expect(open(forged)).rejects.toMatchObject(UNAUTHORIZED);
    await expect(open('')).rejects.toMatchObject(UNAUTHORIZED);
    await expect(open(undefined)).rejects.toMatchObject(UNAUTHORIZED);
    // The other session's own token still opens it.
    expect((await open(await issue(second.id), second.id)).session.id).toBe(second.id);
  });

  it('refuses a token of the earlier format (no credential, no read-only flag), signed with the same key', async () => {
    const { open, session, project, clock } = await setUp();
    // Node's btoa; the domain's types know no DOM.
    const { btoa } = globalThis as unknown as { btoa(text: string): string };
    const payload = btoa(
      JSON.stringify({
        s: session.id,
        p: project.id,
        e: Math.floor(clock.now().getTime() / 1000) + 600,
      }),
    )
      .replace(/\+/g, '-')
      .replace(/\//g, '_')
      .replace(/=+$/, '');
    const old = `${payload}.${signer.sign(`live-view-token:${payload}`).slice(0, 32)}`;
    await expect(open(old)).rejects.toMatchObject(UNAUTHORIZED);
  });

  it('keeps a read-only token read-only whatever the viewer asks, and narrows a full one on request', async () => {
    const { issue, open, session } = await setUp();
    const readOnly = await issue(session.id, undefined, true);
    expect((await open(readOnly)).readOnly).toBe(true);
    expect((await open(readOnly, session.id, undefined, false)).readOnly).toBe(true);
    const full = await issue();
    expect((await open(full)).readOnly).toBe(false);
    expect((await open(full, session.id, undefined, true)).readOnly).toBe(true);
  });

  it('refuses, as any bad token, a token whose project is archived, until it is restored', async () => {
    const w = await setUp();
    const token = await w.issue();
    const keyToken = await w.issue(w.session.id, w.keyCaller);
    await w.setArchived(true);
    await expect(w.open(token)).rejects.toMatchObject(UNAUTHORIZED);
    await expect(w.open(keyToken)).rejects.toMatchObject(UNAUTHORIZED);
    await w.setArchived(false);
    expect((await w.open(token)).session.id).toBe(w.session.id);
  });

  it('refuses a token made with an API key once the key is revoked', async () => {
    const w = await setUp();
    const token = await w.issue(w.session.id, w.keyCaller);
    const admitted = await w.open(token);
    expect(admitted.claims.credential).toEqual({ kind: 'apiKey', keyId: 'key-1' });
    w.clock.advance(3500_000);
    expect((await w.open(token)).session.id).toBe(w.session.id);
    await w.revokeKey();
    await expect(w.open(token)).rejects.toMatchObject(UNAUTHORIZED);
  });

  it('refuses a token made with an API key that expired before the token', async () => {
    const w = await setUp();
    const shortKey = anApiKey({
      projectId: w.project.id,
      ownerId: w.ownerId,
      expiresAt: new Date(w.clock.now().getTime() + 60_000),
      now: w.clock.now(),
    });
    const deps = {
      ...w,
      apiKeys: new InMemoryApiKeyRepository(),
      identity: { isSignInActive: async () => true },
    };
    await deps.apiKeys.add(shortKey);
    const caller: ApiKeyCaller = { ...w.keyCaller, keyId: shortKey.id };
    const view = await new GetSessionLiveView({ ...deps, signer }).execute({
      caller,
      projectId: w.project.id,
      sessionId: w.session.id,
    });
    if (view.kind !== 'browserdeck') throw new Error('expected a token');
    const open = () =>
      new OpenLiveView({ ...deps, signer }).execute({ sessionId: w.session.id, token: view.token });
    expect((await open()).session.id).toBe(w.session.id);
    w.clock.advance(60_000);
    await expect(open()).rejects.toMatchObject(UNAUTHORIZED);
  });

  it('refuses a token made with a sign-in once that sign-in has ended; other sign-ins’ tokens still open', async () => {
    const w = await setUp();
    const token = await w.issue();
    const other = signedIn({
      ...(w.user.signIn as NonNullable<typeof w.user.signIn>),
      sessionId: 'sign-in-2',
    });
    const otherToken = await w.issue(w.session.id, other);
    w.endedSignIns.add('sign-in-1');
    await expect(w.open(token)).rejects.toMatchObject(UNAUTHORIZED);
    expect((await w.open(otherToken)).claims.credential).toEqual({ kind: 'signIn', signInId: 'sign-in-2' });
  });

  it('re-checks only the project for an in-process host acting for the owner', async () => {
    const w = await setUp();
    const token = await w.issue(w.session.id, w.owner);
    const admitted = await w.open(token);
    expect(admitted.claims.credential).toEqual({ kind: 'owner' });
    w.endedSignIns.add('sign-in-1');
    expect((await w.open(token)).session.id).toBe(w.session.id);
    await w.setArchived(true);
    await expect(w.open(token)).rejects.toMatchObject(UNAUTHORIZED);
  });

  it('refuses a member’s token once they are removed from the project, and a driving one once demoted to viewer', async () => {
    const w = await setUp();
    for (const userId of ['dev-1', 'dev-2']) {
      await w.members.add({ projectId: w.project.id, userId, role: 'developer', now: w.clock.now() });
    }
    const removed = await w.issue(w.session.id, asUser('dev-1'));
    const demoted = await w.issue(w.session.id, asUser('dev-2'));
    expect((await w.open(removed)).claims.userId).toBe('dev-1');
    expect((await w.open(demoted)).readOnly).toBe(false);
    await w.members.remove(w.project.id, 'dev-1');
    await w.members.setRole(w.project.id, 'dev-2', 'viewer', w.clock.now());
    await expect(w.open(removed)).rejects.toMatchObject(UNAUTHORIZED);
    await expect(w.open(demoted)).rejects.toMatchObject(UNAUTHORIZED);
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
      userId: w.ownerId,
      credential: { kind: 'owner' },
      readOnly: false,
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
    expect((await open(token)).session.id).toBe(session.id);
  });
});

describe('CheckLiveViewGrant', () => {
  it('holds while the credential does, and not once the project is archived, the key revoked or the sign-in ended', async () => {
    const w = await setUp();
    const bySignIn = await w.open(await w.issue());
    const byKey = await w.open(await w.issue(w.session.id, w.keyCaller));
    const check = (grant: typeof bySignIn) => w.check.execute({ grant });
    expect([await check(bySignIn), await check(byKey)]).toEqual([true, true]);

    await w.setArchived(true);
    expect([await check(bySignIn), await check(byKey)]).toEqual([false, false]);
    await w.setArchived(false);
    expect([await check(bySignIn), await check(byKey)]).toEqual([true, true]);

    await w.revokeKey();
    expect([await check(bySignIn), await check(byKey)]).toEqual([true, false]);
    w.endedSignIns.add('sign-in-1');
    expect(await check(bySignIn)).toBe(false);
  });

  it('does not end a viewer when its token expires: only a change of the credential does', async () => {
    const w = await setUp();
    const grant = await w.open(await w.issue());
    w.clock.advance(2 * 3600_000);
    expect(await w.check.execute({ grant })).toBe(true);
  });
});
