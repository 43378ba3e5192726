import {
  SESSION_METADATA_MAX_BYTES,
  sessionMetadataProblem,
  VIEWPORT_MAX_SIDE,
  VIEWPORT_MIN_SIDE,
} from '@browserdeck/domain';
import { z } from 'zod';

/**
 * The largest viewport side http-api.md §5 accepts. The domain allows up to `VIEWPORT_MAX_SIDE`
 * (7680, which the Browserbase-compatible API keeps); the native contract states 4096.
 */
export const NATIVE_VIEWPORT_MAX_SIDE = 4096;

/**
 * The client's own JSON object for a session: §5's `metadata`, Browserbase's `userMetadata`.
 * Checked with the domain's rule (`sessionMetadataProblem`), so both dialects refuse the same bodies.
 */
export const sessionMetadataField = z
  .record(z.string(), z.unknown(), 'must be a JSON object')
  .check((ctx) => {
    const problem = sessionMetadataProblem(ctx.value);
    if (problem) ctx.issues.push({ code: 'custom', input: ctx.value, message: problem });
  })
  .meta({
    description: `The client’s own JSON object, at most ${SESSION_METADATA_MAX_BYTES} bytes of UTF-8 JSON; stored and filterable with \`q\`.`,
  });

/** Whether the session outlives its last CDP client (http-api.md §5: `keepAlive`). */
export const keepAliveField = z.boolean('must be a boolean');

/** One side of a requested viewport: an integer from `VIEWPORT_MIN_SIDE` to `max` CSS pixels. */
export function viewportSide(max: number = VIEWPORT_MAX_SIDE) {
  const range = `must be an integer from ${VIEWPORT_MIN_SIDE} to ${max}`;
  return z.int(range).min(VIEWPORT_MIN_SIDE, range).max(max, range);
}

/** §5's `viewport`: both sides, each from `VIEWPORT_MIN_SIDE` to `NATIVE_VIEWPORT_MAX_SIDE`. */
export const viewportField = z
  .strictObject(
    { width: viewportSide(NATIVE_VIEWPORT_MAX_SIDE), height: viewportSide(NATIVE_VIEWPORT_MAX_SIDE) },
    'must be an object { width, height }',
  )
  .meta({
    description: `The browser’s window and page size in CSS pixels, each side ${VIEWPORT_MIN_SIDE} to ${NATIVE_VIEWPORT_MAX_SIDE}; default: the provider’s.`,
  });

/**
 * A metadata filter in Browserbase's `q` syntax (`user_metadata['a']['b']:'v'`), shared by both
 * dialects' session lists; the domain parses it (`parseMetadataQuery`), and a malformed one is a
 * 400 naming `q`.
 */
export const metadataQueryParam = z.string('must be given once').meta({
  description:
    "Only sessions whose metadata holds this string (or the number or boolean written so) at this key path: user_metadata['key']['nested']:'value'.",
});
