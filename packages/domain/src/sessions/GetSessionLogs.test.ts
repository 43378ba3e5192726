import type { FakeBrowserProvider } from '@browserdeck/testing';
import { givenSessionWorld, givenTwoInstances } from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { asUser } from '../access/Caller.ts';
import { GetSessionLogs } from './GetSessionLogs.ts';
import { CHECKSUM_CURSOR_SIGNER, type CursorSigner, encodeLogCursor } from './logCursor.ts';
import { ReleaseSession } from './ReleaseSession.ts';

/** A stand-in for a keyed MAC: the checksum of the text under a secret prefix. */
const keyedSigner = (secret: string): CursorSigner => ({
  sign: (text) => CHECKSUM_CURSOR_SIGNER.sign(`${secret}|${text}`),
});

const OWNER = 'owner-1';

async function setUp(entries = 250, cursorSigner?: CursorSigner) {
  const { projects, sessions, provider, project, startSession } = await givenSessionWorld();
  const session = await startSession();
  const other = await startSession();
  for (let i = 0; i < entries; i++) {
    provider.addLog(session.providerSessionId, {
      timestamp: 1_770_000_000_000 + i,
      method: 'Runtime.consoleAPICalled',
      pageId: 0,
    });
  }
  provider.addLog(other.providerSessionId, { timestamp: 1, method: 'Network.requestWillBeSent', pageId: 0 });
  provider.calls.length = 0;
  const getLogs = new GetSessionLogs({
    projects,
    sessions,
    provider,
    ...(cursorSigner ? { cursorSigner } : {}),
  });
  const logs = (input: { cursor?: string; limit?: number; sessionId?: string; ownerId?: string } = {}) =>
    getLogs.execute({
      caller: asUser(input.ownerId ?? OWNER),
      projectId: project.id,
      sessionId: input.sessionId ?? session.id,
      cursor: input.cursor,
      limit: input.limit,
    });
  return { provider, session, other, logs, getLogs };
}

describe('GetSessionLogs', () => {
  it('pages 250 entries by 100 as 100, 100 and 50, in order, with no cursor after the last', async () => {
    const { logs } = await setUp(250);
    const first = await logs({ limit: 100 });
    expect(first.logs).toHaveLength(100);
    expect(first.logs[0]?.timestamp).toBe(1_770_000_000_000);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await logs({ limit: 100, cursor: first.nextCursor! });
    expect(second.logs).toHaveLength(100);
    expect(second.logs[0]?.timestamp).toBe(1_770_000_000_100);
    const third = await logs({ limit: 100, cursor: second.nextCursor! });
    expect(third.logs).toHaveLength(50);
    expect(third.logs.at(-1)?.timestamp).toBe(1_770_000_000_249);
    expect(third.nextCursor).toBeNull();
    const all = [...first.logs, ...second.logs, ...third.logs].map((l) => l.timestamp);
    expect(new Set(all).size).toBe(250);
  });

  it('pages by 100 when no limit is given, and ends exactly on a full page', async () => {
    const { logs } = await setUp(200);
    const first = await logs();
    expect(first.logs).toHaveLength(100);
    const second = await logs({ cursor: first.nextCursor! });
    expect(second.logs).toHaveLength(100);
    expect(second.nextCursor).toBeNull();
  });

  it('answers an empty page for a session without logs', async () => {
    const { logs } = await setUp(0);
    expect(await logs()).toEqual({ logs: [], nextCursor: null });
  });

  it('refuses a forged cursor, another session’s cursor and garbage with validation_failed', async () => {
    const { logs, other } = await setUp(250);
    const { nextCursor } = await logs({ limit: 100 });
    const [offset, check] = nextCursor!.split('.');
    const forged = `${(Number.parseInt(offset!, 36) + 50).toString(36)}.${check}`;
    for (const cursor of [forged, 'garbage', '', '64', '64.', '.abc', `${nextCursor}x`]) {
      await expect(logs({ cursor })).rejects.toMatchObject({ code: 'validation_failed' });
    }
    // A cursor another session handed out does not work here.
    await expect(logs({ sessionId: other.id, cursor: nextCursor! })).rejects.toMatchObject({
      code: 'validation_failed',
    });
  });

  it('with a keyed signer, pages the same and refuses cursors computed without the key', async () => {
    const { logs, session } = await setUp(250, keyedSigner('server-secret'));
    const first = await logs({ limit: 100 });
    const second = await logs({ limit: 100, cursor: first.nextCursor! });
    expect(second.logs[0]?.timestamp).toBe(1_770_000_000_100);
    // What the unkeyed scheme (or another key) would compute for the same offset is refused.
    for (const cursor of [
      encodeLogCursor(session.id, 100),
      encodeLogCursor(session.id, 100, keyedSigner('another-secret')),
    ]) {
      expect(cursor).not.toBe(first.nextCursor);
      await expect(logs({ cursor })).rejects.toMatchObject({ code: 'validation_failed' });
    }
  });

  it.each([0, 501, 1.5, -1])(
    'refuses limit %s with validation_failed and no provider call',
    async (limit) => {
      const { logs, provider } = await setUp(10);
      await expect(logs({ limit })).rejects.toMatchObject({ code: 'validation_failed' });
      expect(provider.calls).toEqual([]);
    },
  );

  it('accepts limit 1 and 500', async () => {
    const { logs } = await setUp(600);
    expect((await logs({ limit: 1 })).logs).toHaveLength(1);
    expect((await logs({ limit: 500 })).logs).toHaveLength(500);
  });

  it('answers not_found for another owner and lets provider errors through', async () => {
    const { logs, provider } = await setUp(10);
    await expect(logs({ ownerId: 'owner-2' })).rejects.toMatchObject({ code: 'not_found' });
    provider.failNext('logs', 'provider_timeout');
    await expect(logs()).rejects.toMatchObject({ code: 'provider_timeout' });
  });
});

describe('GetSessionLogs of a session another instance holds', () => {
  it('refuses with session_on_other_instance, active or ended, and the instance holding it answers', async () => {
    const { projects, sessions, provider, other, project, startSession, clock } = await givenTwoInstances();
    const session = await startSession();
    provider.addLog(session.providerSessionId, {
      timestamp: 1,
      method: 'Runtime.consoleAPICalled',
      pageId: 0,
    });
    const logsOn = (p: FakeBrowserProvider) =>
      new GetSessionLogs({ projects, sessions, provider: p }).execute({
        caller: asUser(OWNER),
        projectId: project.id,
        sessionId: session.id,
      });
    await expect(logsOn(other)).rejects.toMatchObject({ code: 'session_on_other_instance' });
    await new ReleaseSession({ projects, sessions, provider, clock }).execute({
      caller: asUser(OWNER),
      projectId: project.id,
      sessionId: session.id,
    });
    await expect(logsOn(other)).rejects.toMatchObject({ code: 'session_on_other_instance' });
    expect(other.calls).toEqual([]);
    expect((await logsOn(provider)).logs).toHaveLength(1);
  });
});
