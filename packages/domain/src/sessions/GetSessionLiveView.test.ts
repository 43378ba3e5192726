import { givenSessionWorld, givenTwoInstances } from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { asUser, signedIn } from '../access/Caller.ts';
import type { BrowserProvider } from '../providers/BrowserProvider.ts';
import type { ProviderLiveUrls } from '../providers/ProviderLiveUrls.ts';
import { GetSessionLiveView } from './GetSessionLiveView.ts';
import { readLiveViewToken } from './liveViewToken.ts';
import { CHECKSUM_CURSOR_SIGNER, type CursorSigner } from './logCursor.ts';
import { ReleaseSession } from './ReleaseSession.ts';

const signer: CursorSigner = { sign: (text) => CHECKSUM_CURSOR_SIGNER.sign(`secret|${text}`).repeat(6) };

const URLS: ProviderLiveUrls = {
  debuggerUrl: 'https://provider.example/devtools/inspector.html?wss=x',
  debuggerFullscreenUrl: 'https://provider.example/devtools-fullscreen/inspector.html?wss=x',
  wsUrl: 'wss://provider.example/debug/x',
  pages: [
    {
      id: 'P1',
      url: 'about:blank',
      title: '',
      faviconUrl: '',
      debuggerUrl: 'https://provider.example/p1',
      debuggerFullscreenUrl: 'https://provider.example/p1/full',
    },
  ],
};

async function setUp(world?: Awaited<ReturnType<typeof givenSessionWorld>>, tokenTtlSec?: number) {
  const w = world ?? (await givenSessionWorld());
  const session = await w.startSession();
  const liveView = (provider: BrowserProvider = w.provider) =>
    new GetSessionLiveView({ ...w, provider, signer, tokenTtlSec });
  const view = (input: { sessionId?: string; projectId?: string } = {}, provider?: BrowserProvider) =>
    liveView(provider).execute({
      caller: w.owner,
      projectId: input.projectId ?? w.project.id,
      sessionId: input.sessionId ?? session.id,
    });
  return { ...w, session, liveView, view };
}

describe('GetSessionLiveView', () => {
  it('gives a token for this session, valid for an hour, when the provider has no live URLs of its own', async () => {
    const { view, session, project, clock } = await setUp();
    const result = await view();
    if (result.kind !== 'browserdeck') throw new Error(`expected browserdeck, got ${result.kind}`);
    expect(result.session.id).toBe(session.id);
    expect(result.expiresAt).toEqual(new Date(clock.now().getTime() + 3600_000));
    expect(result.readOnly).toBe(false);
    expect(readLiveViewToken(signer, result.token)).toEqual({
      sessionId: session.id,
      projectId: project.id,
      userId: project.ownerId,
      credential: { kind: 'owner' },
      readOnly: false,
      expiresAt: result.expiresAt,
    });
  });

  it('names the caller’s credential in the token: its sign-in session, or its API key', async () => {
    const w = await setUp();
    const token = async (caller: Parameters<GetSessionLiveView['execute']>[0]['caller']) => {
      const result = await w.liveView().execute({ caller, projectId: w.project.id, sessionId: w.session.id });
      if (result.kind !== 'browserdeck') throw new Error('expected a token');
      return readLiveViewToken(signer, result.token);
    };
    const user = signedIn({
      userId: w.ownerId,
      email: 'owner@example.com',
      sessionId: 'sign-in-7',
      expiresAt: new Date(w.clock.now().getTime() + 900_000),
    });
    expect(await token(user)).toMatchObject({
      userId: w.ownerId,
      credential: { kind: 'signIn', signInId: 'sign-in-7' },
    });
    const key = {
      kind: 'apiKey' as const,
      keyId: 'key-9',
      projectId: w.project.id,
      keyName: 'CI',
      role: 'developer' as const,
    };
    expect(await token(key)).toMatchObject({
      userId: w.ownerId,
      credential: { kind: 'apiKey', keyId: 'key-9' },
    });
  });

  it('makes a read-only token on request', async () => {
    const w = await setUp();
    const result = await w
      .liveView()
      .execute({ caller: w.owner, projectId: w.project.id, sessionId: w.session.id, readOnly: true });
    if (result.kind !== 'browserdeck') throw new Error('expected a token');
    expect(result.readOnly).toBe(true);
    expect(readLiveViewToken(signer, result.token)?.readOnly).toBe(true);
  });

  it('is project_archived in an archived project: its viewers are refused, so no token is made', async () => {
    const w = await setUp();
    const project = (await w.projects.findAccess(w.project.id, w.ownerId))?.project;
    project?.archive(w.clock.now());
    if (project) await w.projects.update(project);
    await expect(w.view()).rejects.toMatchObject({ code: 'project_archived' });
  });

  it('gives a viewer member a read-only token for themselves, whatever they asked for', async () => {
    const w = await setUp();
    await w.members.add({ projectId: w.project.id, userId: 'viewer-1', role: 'viewer', now: w.clock.now() });
    const result = await w
      .liveView()
      .execute({ caller: asUser('viewer-1'), projectId: w.project.id, sessionId: w.session.id });
    if (result.kind !== 'browserdeck') throw new Error('expected a token');
    expect(result.readOnly).toBe(true);
    expect(readLiveViewToken(signer, result.token)).toMatchObject({ userId: 'viewer-1', readOnly: true });
  });

  it('refuses a viewer the provider’s own live view with forbidden_for_role: it cannot be made read-only', async () => {
    const w = await setUp();
    await w.members.add({ projectId: w.project.id, userId: 'viewer-1', role: 'viewer', now: w.clock.now() });
    const withUrls = Object.assign(Object.create(w.provider) as BrowserProvider, {
      liveUrls: async () => URLS,
    });
    await expect(
      w
        .liveView(withUrls)
        .execute({ caller: asUser('viewer-1'), projectId: w.project.id, sessionId: w.session.id }),
    ).rejects.toMatchObject({ code: 'forbidden_for_role' });
  });

  it('refuses readOnly with unsupported_option when the provider answers live URLs of its own', async () => {
    const w = await setUp();
    const withUrls = Object.assign(Object.create(w.provider) as BrowserProvider, {
      liveUrls: async () => URLS,
    });
    await expect(
      w
        .liveView(withUrls)
        .execute({ caller: w.owner, projectId: w.project.id, sessionId: w.session.id, readOnly: true }),
    ).rejects.toMatchObject({ code: 'unsupported_option', errors: [{ path: 'readOnly' }] });
  });

  it('takes the token lifetime from its deps', async () => {
    const { view, clock } = await setUp(undefined, 120);
    const result = await view();
    expect(result.kind === 'browserdeck' && result.expiresAt).toEqual(
      new Date(clock.now().getTime() + 120_000),
    );
  });

  it('passes the provider’s own live URLs through when it has them, asking it by the provider’s id', async () => {
    const { view, provider, session } = await setUp();
    const asked: string[] = [];
    const withUrls = Object.assign(Object.create(provider) as BrowserProvider, {
      liveUrls: async (id: string) => {
        asked.push(id);
        return URLS;
      },
    });
    expect(await view({}, withUrls)).toEqual({ kind: 'provider', urls: URLS });
    expect(asked).toEqual([session.providerSessionId]);
  });

  it('is session_ended when the provider no longer knows the session', async () => {
    const { view, provider } = await setUp();
    const forgetful = Object.assign(Object.create(provider) as BrowserProvider, {
      liveUrls: async () => null,
    });
    await expect(view({}, forgetful)).rejects.toMatchObject({ code: 'session_ended' });
  });

  it('is session_ended for a session that has ended, without asking the provider', async () => {
    const w = await setUp();
    await new ReleaseSession(w).execute({
      caller: w.owner,
      projectId: w.project.id,
      sessionId: w.session.id,
    });
    w.provider.calls.length = 0;
    let asked = 0;
    const withUrls = Object.assign(Object.create(w.provider) as BrowserProvider, {
      liveUrls: async () => {
        asked++;
        return URLS;
      },
    });
    await expect(w.view()).rejects.toMatchObject({ code: 'session_ended' });
    await expect(w.view({}, withUrls)).rejects.toMatchObject({ code: 'session_ended' });
    expect(asked).toBe(0);
    expect(w.provider.calls).toEqual([]);
  });

  it('is not_found for an unknown session, another project’s session and another user’s project', async () => {
    const w = await setUp();
    const other = await w.addProject('Other', 'other');
    await expect(w.view({ sessionId: '00000000-0000-7000-8000-000000000000' })).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(w.view({ projectId: other.id })).rejects.toMatchObject({ code: 'not_found' });
    await expect(
      w
        .liveView()
        .execute({ caller: asUser('someone-else'), projectId: w.project.id, sessionId: w.session.id }),
    ).rejects.toMatchObject({ code: 'not_found' });
  });

  it('works for the project’s API key and refuses another project’s with forbidden_for_api_key', async () => {
    const w = await setUp();
    const other = await w.addProject('Other', 'other');
    const key = (projectId: string) => ({
      kind: 'apiKey' as const,
      keyId: 'k',
      keyName: 'CI',
      role: 'developer' as const,
      projectId,
    });
    const own = await w
      .liveView()
      .execute({ caller: key(w.project.id), projectId: w.project.id, sessionId: w.session.id });
    expect(own.kind).toBe('browserdeck');
    await expect(
      w.liveView().execute({ caller: key(other.id), projectId: w.project.id, sessionId: w.session.id }),
    ).rejects.toMatchObject({ code: 'forbidden_for_api_key' });
  });

  it('is session_on_other_instance for a session whose browser another instance holds', async () => {
    const world = await givenTwoInstances();
    const { other } = world;
    const { view } = await setUp(world);
    await expect(view({}, other)).rejects.toMatchObject({ code: 'session_on_other_instance' });
    expect((await view()).kind).toBe('browserdeck');
  });
});
