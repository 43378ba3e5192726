import { z } from 'zod';
import { timestamp } from '../shared/commonSchemas.ts';
import { sessionParams } from './sessionSchemas.ts';

/** A tab's id in a recording: its number in the session (`0`, `1`…, as the logs number pages). */
export const replayPageId = z.string().regex(/^\d{1,6}$/, 'must be a page id of the recording (0, 1, …)');

/** `…/sessions/{session_id}/replay/{page_id}.m3u8|mp4` */
export const replayPageParams = sessionParams.extend({ page_id: replayPageId });

/** `…/sessions/{session_id}/replay/{page_id}/{segment}`: an HLS segment of the tab's playlist. */
export const replaySegmentParams = replayPageParams.extend({
  segment: z.string().regex(/^seg_\d{3,6}\.ts$/, 'must be a segment of the playlist (seg_000.ts, …)'),
});

/** `/v1/recordings/{token}/{file}`: a file a replay link grants. */
export const replayLinkParams = z.object({
  token: z.string().max(1024),
  file: z
    .string()
    .regex(
      /^(video\.mp4|seg_\d{3,6}\.ts)$/,
      'must be video.mp4 or a segment of the playlist (seg_000.ts, …)',
    ),
});

/** `GET …/sessions/{session_id}/replay` (SPEC §18). */
export const SessionReplaySchema = z
  .object({
    status: z.enum(['RECORDING', 'PROCESSING', 'READY', 'FAILED', 'NONE', 'EXPIRED']).meta({
      description:
        'RECORDING while the session runs, PROCESSING while its videos are made, READY once they are, FAILED when they could not be made (see error), NONE when it was not recorded, EXPIRED past RECORDINGS_RETENTION_DAYS.',
    }),
    bytes: z.int().nonnegative().meta({ description: 'Bytes of every tab’s frames.' }),
    capped: z
      .boolean()
      .meta({ description: 'true: RECORDING_MAX_MB stopped the recording; later frames are not in it.' }),
    error: z.string().nullable(),
    completedAt: timestamp.nullable(),
    pages: z.array(
      z.object({
        pageId: z.string(),
        url: z.string(),
        title: z.string(),
        startTimeMs: z.int(),
        endTimeMs: z.int().nullable(),
        width: z.int(),
        height: z.int(),
        frames: z.int(),
        bytes: z.int(),
        hlsUrl: z
          .string()
          .nullable()
          .meta({ description: 'The tab’s HLS VOD playlist (same credentials), once READY.' }),
        mp4Url: z.string().nullable().meta({ description: 'The tab’s MP4 (same credentials), once READY.' }),
      }),
    ),
  })
  .meta({ id: 'SessionReplay' });

/** `GET /v1/sessions/{id}/replays` (Browserbase's `sessions.replays.retrieve`). */
export const BrowserbaseReplaysSchema = z.object({
  pageCount: z.int(),
  pages: z.array(z.object({ pageId: z.string(), url: z.string(), startTimeMs: z.int(), endTimeMs: z.int() })),
});

/** `…/recording/downloads` (Browserbase's `sessions.recording.downloads`). */
export const BrowserbaseRecordingDownloadsSchema = z.object({
  downloads: z.array(
    z.object({
      pageId: z.string(),
      status: z.enum(['NOT_REQUESTED', 'PENDING', 'COMPLETED', 'FAILED']),
      downloadUrl: z.string().optional().meta({ description: 'A short-lived signed URL that needs no key.' }),
      completedAt: timestamp.optional(),
    }),
  ),
});
