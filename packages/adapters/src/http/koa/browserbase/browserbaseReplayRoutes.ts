import type { ReplayDownload } from '@browserdeck/domain';
import { DomainError } from '@browserdeck/domain';
import type { z } from 'zod';
import {
  HLS_PLAYLIST_TYPE,
  playlistWithLinks,
  REPLAY_FILE_ERRORS,
  type ReplayRouteDeps,
  replayLinkUrl,
} from '../api/sessions/replayRoutes.ts';
import {
  BrowserbaseRecordingDownloadsSchema,
  BrowserbaseReplaysSchema,
  replayPageId,
} from '../api/sessions/replaySchemas.ts';
import { isoTimestamp } from '../api/shared/isoTimestamp.ts';
import type { PublicUrls } from '../kernel/proxy/PublicUrls.ts';
import { type AnyRoute, defineRoute } from '../kernel/routing/RouteDefinition.ts';
import { BROWSERBASE_ROUTE } from './browserbaseRoute.ts';
import { browserbaseIdParams } from './browserbaseSchemas.ts';
import { sessionIdOf } from './browserbaseSessionRoutes.ts';
import { keyProject } from './requireApiKey.ts';

/** Browserbase's download entries: a `downloadUrl` (a replay link) and `completedAt` once COMPLETED. */
function presentDownloads(
  downloads: readonly ReplayDownload[],
  urls: PublicUrls,
): z.input<typeof BrowserbaseRecordingDownloadsSchema> {
  return {
    downloads: downloads.map((download) => ({
      pageId: download.pageId,
      status: download.status,
      ...(download.token ? { downloadUrl: replayLinkUrl(urls, download.token, 'video.mp4') } : {}),
      ...(download.completedAt ? { completedAt: isoTimestamp(download.completedAt) } : {}),
    })),
  };
}

/**
 * Browserbase's recording routes (SDK 2.21, SPEC §18) over `sessions.replay`: `replays.retrieve`
 * and `retrievePage` (a tab's HLS VOD playlist), `recording.downloads.create` and `list` (MP4s by
 * short-lived signed URLs), and the deprecated rrweb `recording.retrieve`, answered with a 422
 * naming the replay routes (Browserdeck records video, not the DOM).
 */
export function browserbaseReplayRoutes(deps: ReplayRouteDeps): AnyRoute[] {
  const ref = (caller: Parameters<typeof keyProject>[0], id: string) => ({
    caller,
    projectId: keyProject(caller),
    sessionId: sessionIdOf(id),
  });
  const scope = { ...BROWSERBASE_ROUTE, role: 'viewer' as const, params: browserbaseIdParams };
  return [
    defineRoute({
      ...scope,
      method: 'GET',
      path: '/v1/sessions/{id}/replays',
      operationId: 'browserbaseSessionReplays',
      summary: 'A session’s replay: a video per tab (Browserbase)',
      responses: { 200: { description: 'The recorded pages.', schema: BrowserbaseReplaysSchema } },
      errors: REPLAY_FILE_ERRORS,
      handle: async ({ caller, params }) => {
        const replay = await deps.replay.finished(ref(caller, params.id));
        return {
          status: 200,
          body: {
            pageCount: replay.pages.length,
            pages: replay.pages.map((page) => ({
              pageId: page.pageId,
              url: page.url,
              startTimeMs: page.startTimeMs,
              endTimeMs: page.endTimeMs ?? page.startTimeMs,
            })),
          },
        };
      },
    }),
    defineRoute({
      ...scope,
      method: 'GET',
      path: '/v1/sessions/{id}/replays/{pageId}',
      operationId: 'browserbaseSessionReplayPage',
      summary: 'A tab’s video as an HLS VOD playlist (Browserbase)',
      params: browserbaseIdParams.extend({ pageId: replayPageId }),
      responses: { 200: { description: 'The playlist.', contentType: HLS_PLAYLIST_TYPE } },
      errors: REPLAY_FILE_ERRORS,
      handle: async ({ caller, params, publicUrls }) => {
        const { bytes, linkToken } = await deps.replay.file({
          ...ref(caller, params.id),
          pageId: params.pageId,
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
      method: 'POST',
      path: '/v1/sessions/{id}/recording/downloads',
      operationId: 'browserbaseCreateRecordingDownloads',
      summary: 'Ask for a session’s MP4 downloads (Browserbase)',
      responses: {
        202: { description: 'Every page, PENDING.', schema: BrowserbaseRecordingDownloadsSchema },
      },
      errors: REPLAY_FILE_ERRORS,
      handle: async ({ caller, params, publicUrls }) => ({
        status: 202,
        body: presentDownloads(await deps.replay.requestDownloads(ref(caller, params.id)), publicUrls),
      }),
    }),
    defineRoute({
      ...scope,
      method: 'GET',
      path: '/v1/sessions/{id}/recording/downloads',
      operationId: 'browserbaseListRecordingDownloads',
      summary: 'A session’s MP4 downloads, with short-lived signed URLs (Browserbase)',
      responses: {
        200: { description: 'Each page’s download.', schema: BrowserbaseRecordingDownloadsSchema },
      },
      errors: REPLAY_FILE_ERRORS,
      handle: async ({ caller, params, publicUrls }) => ({
        status: 200,
        body: presentDownloads(await deps.replay.downloads(ref(caller, params.id)), publicUrls),
      }),
    }),
    defineRoute({
      ...scope,
      method: 'GET',
      path: '/v1/sessions/{id}/recording',
      operationId: 'browserbaseSessionRecording',
      summary: 'rrweb events: not made; use the replay routes (Browserbase, deprecated)',
      responses: { 200: { description: 'Never: this route always answers 422.' } },
      errors: ['not_found', 'not_recorded', 'not_implemented'],
      handle: async ({ caller, params }) => {
        // An unknown session is a 404 as on every session route; a known one has no rrweb events.
        await deps.replay.execute(ref(caller, params.id));
        throw new DomainError(
          'not_recorded',
          'Browserdeck records sessions as video, not as rrweb DOM events (which Browserbase deprecates): use ' +
            'GET /v1/sessions/{id}/replays and /v1/sessions/{id}/replays/{pageId} (HLS), or POST and GET ' +
            '/v1/sessions/{id}/recording/downloads (MP4).',
        );
      },
    }),
  ];
}
