import { givenSessionWorld } from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { asUser } from '../access/Caller.ts';
import type {
  RecordingCapability,
  RecordingFile,
  StoredRecording,
} from '../providers/ProviderCapabilities.ts';
import { GetSessionReplay } from './GetSessionReplay.ts';
import { CHECKSUM_CURSOR_SIGNER, type CursorSigner } from './logCursor.ts';
import { ReleaseSession } from './ReleaseSession.ts';

const keyed = (secret: string): CursorSigner => ({
  sign: (text) => CHECKSUM_CURSOR_SIGNER.sign(`${secret}|${text}`).repeat(6),
});
const signer = keyed('secret');

const PAGE = {
  pageId: '0',
  url: 'http://127.0.0.1/page',
  title: 'Page',
  startTimeMs: 1_000,
  endTimeMs: 5_000,
  width: 640,
  height: 480,
  frames: 12,
  bytes: 4_096,
};

/** A recording capability over recordings kept in a map, with the files of each tab's video. */
function fakeRecording(recordings: Map<string, StoredRecording>) {
  const files = new Map<string, Uint8Array>();
  const requested: string[] = [];
  const recording: RecordingCapability = {
    retentionDays: 7,
    async recording(id) {
      const stored = recordings.get(id);
      return stored ? { ...stored, downloadsRequested: requested.includes(id) } : null;
    },
    async file(id, pageId, file: RecordingFile) {
      return files.get(`${id}/${pageId}/${file}`) ?? null;
    },
    async requestDownloads(id) {
      requested.push(id);
    },
  };
  return { recording, files, requested };
}

const stored = (state: StoredRecording['state'], extra: Partial<StoredRecording> = {}): StoredRecording => ({
  state,
  bytes: 4_096,
  capped: false,
  pages: [PAGE],
  error: null,
  completedAt: state === 'READY' ? new Date('2026-03-01T12:00:05.000Z') : null,
  downloadsRequested: false,
  ...extra,
});

async function setUp() {
  const w = await givenSessionWorld();
  const session = await w.startSession();
  const recordings = new Map<string, StoredRecording>();
  const fake = fakeRecording(recordings);
  w.provider.capabilities = { recording: fake.recording };
  const replay = new GetSessionReplay({ ...w, signer });
  const input = { caller: w.owner, projectId: w.project.id, sessionId: session.id };
  const release = () => new ReleaseSession(w).execute(input);
  return { w, session, recordings, ...fake, replay, input, release };
}

describe('GetSessionReplay', () => {
  it('answers the stored recording’s state and pages, NONE when there is none', async () => {
    const { session, recordings, replay, input } = await setUp();
    expect(await replay.execute(input)).toMatchObject({ status: 'NONE', pages: [] });
    recordings.set(session.providerSessionId, stored('RECORDING', { pages: [{ ...PAGE, endTimeMs: null }] }));
    expect(await replay.execute(input)).toMatchObject({
      status: 'RECORDING',
      bytes: 4_096,
      pages: [{ pageId: '0' }],
    });
  });

  it('says EXPIRED for a session that ended longer ago than the retention and has no recording left', async () => {
    const { w, replay, input, release } = await setUp();
    await release();
    w.clock.advance(6 * 86_400_000);
    expect((await replay.execute(input)).status).toBe('NONE');
    w.clock.advance(2 * 86_400_000);
    expect((await replay.execute(input)).status).toBe('EXPIRED');
    await expect(replay.file({ ...input, pageId: '0', file: 'video.mp4' })).rejects.toMatchObject({
      code: 'recording_expired',
    });
  });

  it('serves a tab’s files once the session has ended and its videos are made, and refuses each state before', async () => {
    const { session, recordings, files, replay, input, release } = await setUp();
    const mp4 = { ...input, pageId: '0', file: 'video.mp4' as const };
    files.set(`${session.providerSessionId}/0/video.mp4`, new Uint8Array([1, 2, 3]));
    await expect(replay.file(mp4)).rejects.toMatchObject({ code: 'session_active' });
    recordings.set(session.providerSessionId, stored('RECORDING'));
    await expect(replay.file(mp4)).rejects.toMatchObject({ code: 'session_active' });
    await release();
    recordings.set(session.providerSessionId, stored('PROCESSING'));
    await expect(replay.file(mp4)).rejects.toMatchObject({ code: 'recording_processing' });
    recordings.set(session.providerSessionId, stored('FAILED', { error: 'ffmpeg is not installed' }));
    await expect(replay.file(mp4)).rejects.toMatchObject({
      code: 'not_recorded',
      message: expect.stringContaining('ffmpeg is not installed'),
    });
    recordings.set(session.providerSessionId, stored('READY'));
    const { bytes, linkToken } = await replay.file(mp4);
    expect([...bytes]).toEqual([1, 2, 3]);
    await expect(replay.file({ ...mp4, pageId: '7' })).rejects.toMatchObject({ code: 'not_found' });
    // The link needs no caller: the token names the project, session and tab.
    expect(await replay.linked(linkToken, 'video.mp4')).toMatchObject({ sessionId: session.id, pageId: '0' });
  });

  it('is not_recorded for a session that ended unrecorded, and not_implemented at a provider that does not record', async () => {
    const { w, replay, input, release } = await setUp();
    await release();
    await expect(replay.file({ ...input, pageId: '0', file: 'index.m3u8' })).rejects.toMatchObject({
      code: 'not_recorded',
    });
    await expect(replay.downloads(input)).rejects.toMatchObject({ code: 'not_recorded' });
    w.provider.capabilities = { recording: undefined };
    await expect(replay.execute(input)).rejects.toMatchObject({ code: 'not_implemented' });
  });

  it('refuses a link that expired, was changed, or was made with another key', async () => {
    const { w, session, recordings, files, replay, input, release } = await setUp();
    await release();
    recordings.set(session.providerSessionId, stored('READY'));
    files.set(`${session.providerSessionId}/0/video.mp4`, new Uint8Array([9]));
    const { linkToken } = await replay.file({ ...input, pageId: '0', file: 'video.mp4' });
    const other = new GetSessionReplay({ ...w, signer: keyed('other') });
    await expect(other.linked(linkToken, 'video.mp4')).rejects.toMatchObject({ code: 'unauthorized' });
    const changed = `${linkToken.slice(0, -2)}${linkToken.endsWith('aa') ? 'bb' : 'aa'}`;
    await expect(replay.linked(changed, 'video.mp4')).rejects.toMatchObject({ code: 'unauthorized' });
    expect((await replay.linked(linkToken, 'video.mp4')).bytes).toEqual(new Uint8Array([9]));
    w.clock.advance(3_600_000);
    await expect(replay.linked(linkToken, 'video.mp4')).rejects.toMatchObject({ code: 'unauthorized' });
  });

  it('lists downloads as Browserbase does: NOT_REQUESTED, PENDING once asked, COMPLETED with a link once made', async () => {
    const { session, recordings, requested, replay, input, release } = await setUp();
    recordings.set(session.providerSessionId, stored('RECORDING'));
    await expect(replay.requestDownloads(input)).rejects.toMatchObject({ code: 'session_active' });
    await expect(replay.downloads(input)).rejects.toMatchObject({ code: 'session_active' });
    await release();
    recordings.set(session.providerSessionId, stored('PROCESSING'));
    expect(await replay.downloads(input)).toEqual([
      { pageId: '0', status: 'NOT_REQUESTED', token: null, completedAt: null },
    ]);
    expect(await replay.requestDownloads(input)).toEqual([
      { pageId: '0', status: 'PENDING', token: null, completedAt: null },
    ]);
    expect(requested).toEqual([session.providerSessionId]);
    expect(await replay.downloads(input)).toMatchObject([{ status: 'PENDING', token: null }]);
    recordings.set(session.providerSessionId, stored('READY'));
    const [completed] = await replay.downloads(input);
    expect(completed).toMatchObject({
      pageId: '0',
      status: 'COMPLETED',
      completedAt: new Date('2026-03-01T12:00:05.000Z'),
    });
    expect(completed?.token).toEqual(expect.any(String));
  });

  it('lets a viewer read the replay, and nobody outside the project', async () => {
    const { w, session, recordings, replay, input } = await setUp();
    recordings.set(session.providerSessionId, stored('RECORDING'));
    await w.members.add({ projectId: w.project.id, userId: 'viewer-1', role: 'viewer', now: w.clock.now() });
    expect((await replay.execute({ ...input, caller: asUser('viewer-1') })).status).toBe('RECORDING');
    await expect(replay.execute({ ...input, caller: asUser('stranger') })).rejects.toMatchObject({
      code: 'not_found',
    });
  });
});
