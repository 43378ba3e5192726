import { z } from 'zod';
import { queryBoolean, uuidParam } from '../shared/commonSchemas.ts';

/** A CDP target id as the live view's `page` parameter takes it. */
export const LIVE_PAGE_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** `/v1/live/{session_id}` */
export const liveViewParams = z.object({ session_id: uuidParam });

/** `GET /v1/live/{session_id}?token=…&page=…&fullscreen=…&readOnly=…` (http-api.md §14). */
export const LiveViewPageQuery = z.object({
  token: z.string('must be given once').optional(),
  page: z
    .string('must be given once')
    .regex(LIVE_PAGE_ID, 'must be a page id from the debug answer')
    .optional(),
  fullscreen: queryBoolean.optional(),
  readOnly: queryBoolean.optional(),
});

/** `/v1/live/assets/{file}` */
export const liveViewAssetParams = z.object({ file: z.string() });
