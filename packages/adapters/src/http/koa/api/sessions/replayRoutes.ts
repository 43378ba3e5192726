import type { Caller, ErrorCode, GetSessionReplay, RecordingFile, SessionReplay } from '@browserdeck/domain';
import type { z } from 'zod';
import type { PublicUrls } from '../../kernel/proxy/PublicUrls.ts';
import { type AnyRoute, defineRoute } from '../../kernel/routing/RouteDefinition.ts';
import { isoTimestamp } from '../shared/isoTimestamp.ts';
import { PROVIDER_PROJECT_PATH, providerPathValues } from '../shared/providerScope.ts';
import {
  replayLinkParams,
  replayPageParams,
  replaySegmentParams,
  SessionReplaySchema,
} from './replaySchemas.ts';
import { SESSIONS_TAG } from './sessionRoutes.ts';
import { sessionParams } from './sessionSchemas.ts';

/** The replay routes' use case (`sessions.replay`): the replay, and its file, link and download calls. */
export interface ReplayRouteDeps {
  replay: Pick<
    GetSessionReplay,
    'execute' | 'finished' | 'file' | 'linked' | 'downloads' | 'requestDownloads'
  >;
}

/** What reading a finished video may fail with (SPEC §18). */
export const REPLAY_FILE_ERRORS = [
  'not_found',
  'session_active',
  'recording_processing',
  'not_recorded',
  'recording_expired',
  'not_implemented',
] as const satisfies readonly ErrorCode[];

/** The media type of each file of a tab's video. */
export const HLS_PLAYLIST_TYPE = 'application/vnd.apple.mpegurl';
const MEDIA_TYPES = { mp4: 'video/mp4', ts: 'video/mp2t', m3u8: HLS_PLAYLIST_TYPE } as const;

/** Where a replay link points: `/v1/recordings/{token}/{file}` under this client's public URL. */
export function replayLinkUrl(urls: PublicUrls, token: string, file: string): string {
  return `${urls.base}/v1/recordings/${encodeURIComponent(token)}/${file}`;
}

/**
 * A tab's HLS playlist as served: each segment line replaced by the segment's replay link, so a
 * player fetches the segments with no key (the playlist itself needed one).
 */
export function playlistWithLinks(playlist: Uint8Array, urls: PublicUrls, token: string): string {
  return Buffer.from(playlist)
    .toString('utf8')
    .split('\n')
    .map((line) => (line.trim() && !line.startsWith('#') ? replayLinkUrl(urls, token, line.trim()) : line))
    .join('\n');
}

/** The answer for the bytes of one file of a tab's video. */
export function mediaAnswer(bytes: Uint8Array, file: RecordingFile | string, download?: string) {
  const extension = file.slice(file.lastIndexOf('.') + 1) as keyof typeof MEDIA_TYPES;
  return {
    status: 200 as const,
    body: Buffer.from(bytes),
    contentType: MEDIA_TYPES[extension] ?? 'application/octet-stream',
    headers: {
      'Cache-Control': 'private, max-age=300',
      ...(download ? { 'Content-Disposition': `attachment; filename="${download}"` } : {}),
    },
  };
}

/** The native replay document: the use case's replay with each tab's video URLs once READY. */
function presentReplay(
  replay: SessionReplay,
  base: string,
  urls: PublicUrls,
): z.input<typeof SessionReplaySchema> {
  const ready = replay.status === 'READY';
  return {
    status: replay.status,
    bytes: replay.bytes,
    capped: replay.capped,
    error: replay.error,
    completedAt: replay.completedAt ? isoTimestamp(replay.completedAt) : null,
    pages: replay.pages.map((page) => ({
      ...page,
      hlsUrl: ready ? `${urls.base}${base}/${page.pageId}.m3u8` : null,
      mp4Url: ready ? `${urls.base}${base}/${page.pageId}.mp4` : null,
    })),
  };
}

/**
 * `…/sessions/{session_id}/replay` (SPEC §18): the replay, each tab's HLS VOD playlist and MP4 once
 * the session has ended and its videos are made; and `/v1/recordings/{token}/{file}`, the files a
 * short-lived replay link grants with no key (a playlist's segments, Browserbase's `downloadUrl`).
 */
export function replayRoutes(deps: ReplayRouteDeps, providerName: string): AnyRoute[] {
  const base = `${PROVIDER_PROJECT_PATH}/sessions/{session_id}/replay`;
  const scope = {
    tag: SESSIONS_TAG.name,
    auth: 'userOrKey' as const,
    role: 'viewer' as const,
    method: 'GET' as const,
    pathValues: providerPathValues(providerName),
  };
  const ref = (params: { project_id: string; session_id: string }, caller: Caller) => ({
    caller,
    projectId: params.project_id,
    sessionId: params.session_id,
  });
  const basePath = (params: { provider: string; project_id: string; session_id: string }) =>
    `/v1/${params.provider}/projects/${params.project_id}/sessions/${params.session_id}/replay`;
  return [
    defineRoute({
      ...scope,
      path: base,
      operationId: 'getSessionReplay',
      summary: 'The session’s recording: status and a video per tab',
      description:
        'RECORDING while the session runs, then PROCESSING while each tab’s video is made, then READY with each ' +
        'tab’s `hlsUrl` and `mp4Url`. NONE: not recorded (`record: false`, `RECORD_SESSIONS=false`); EXPIRED: past ' +
        'the retention. Local and Selenium Grid sessions only.',
      params: sessionParams,
      responses: { 200: { description: 'The replay.', schema: SessionReplaySchema } },
      errors: ['not_found', 'not_implemented'],
      handle: async ({ caller, params, publicUrls }) => ({
        status: 200,
        body: presentReplay(await deps.replay.execute(ref(params, caller)), basePath(params), publicUrls),
      }),
    }),
    defineRoute({
      ...scope,
      path: `${base}/{page_id}.m3u8`,
      operationId: 'getSessionReplayPlaylist',
      summary: 'A tab’s video as an HLS VOD playlist',
      description:
        'H.264 segments, each a short-lived link that needs no key. 409 `session_active` while the session runs.',
      params: replayPageParams,
      responses: { 200: { description: 'The playlist.', contentType: HLS_PLAYLIST_TYPE } },
      errors: REPLAY_FILE_ERRORS,
      handle: async ({ caller, params, publicUrls }) => {
        const { bytes, linkToken } = await deps.replay.file({
          ...ref(params, caller),
          pageId: params.page_id,
          file: 'index.m3u8',
        });
        return {
          status: 200,
          body: playlistWithLinks(bytes, publicUrls, linkToken),
          contentType: HLS_PLAYLIST_TYPE,
        };
      },
    }),
    defineRoute({
      ...scope,
      path: `${base}/{page_id}.mp4`,
      operationId: 'getSessionReplayVideo',
      summary: 'A tab’s video as an MP4',
      description: 'H.264, yuv420p, `+faststart`. 409 `session_active` while the session runs.',
      params: replayPageParams,
      responses: { 200: { description: 'The MP4.', contentType: MEDIA_TYPES.mp4 } },
      errors: REPLAY_FILE_ERRORS,
      handle: async ({ caller, params }) => {
        const { bytes } = await deps.replay.file({
          ...ref(params, caller),
          pageId: params.page_id,
          file: 'video.mp4',
        });
        return mediaAnswer(bytes, 'video.mp4', `${params.session_id}-${params.page_id}.mp4`);
      },
    }),
    defineRoute({
      ...scope,
      path: `${base}/{page_id}/{segment}`,
      operationId: 'getSessionReplaySegment',
      summary: 'A segment of a tab’s HLS playlist',
      params: replaySegmentParams,
      responses: { 200: { description: 'The segment.', contentType: MEDIA_TYPES.ts } },
      errors: REPLAY_FILE_ERRORS,
      handle: async ({ caller, params }) => {
        const file = params.segment as RecordingFile;
        const { bytes } = await deps.replay.file({ ...ref(params, caller), pageId: params.page_id, file });
        return mediaAnswer(bytes, file);
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/recordings/{token}/{file}',
      operationId: 'getReplayLinkFile',
      summary: 'A file of a tab’s video by its short-lived link (no key)',
      description:
        'What a replay link grants: the tab’s MP4 (`video.mp4`, Browserbase’s `downloadUrl`) or a segment of its ' +
        'HLS playlist. 401 once the link has expired (an hour by default): ask for the replay or the downloads again.',
      tag: SESSIONS_TAG.name,
      auth: 'none',
      params: replayLinkParams,
      responses: { 200: { description: 'The file.' } },
      errors: ['unauthorized', ...REPLAY_FILE_ERRORS],
      handle: async ({ params }) => {
        const file = params.file as RecordingFile;
        const { sessionId, pageId, bytes } = await deps.replay.linked(params.token, file);
        return mediaAnswer(bytes, file, file === 'video.mp4' ? `${sessionId}-${pageId}.mp4` : undefined);
      },
    }),
  ];
}
