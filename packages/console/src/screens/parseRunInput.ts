/** The largest `input` a run takes, as UTF-8 JSON (http-api.md §11: 64 KiB). */
export const RUN_INPUT_MAX_BYTES = 64 * 1024;

/** What the input editor holds: a JSON value to send (`undefined`: none), or why it cannot be sent. */
export type ParsedRunInput = { ok: true; input: unknown } | { ok: false; message: string };

/**
 * Reads the run form's input text before it is sent: empty (or only spaces) is no input; anything
 * else must be one JSON value of at most 64 KiB once encoded, else a message for the field says why.
 */
export function parseRunInput(text: string): ParsedRunInput {
  if (text.trim() === '') return { ok: true, input: undefined };
  let input: unknown;
  try {
    input = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, message: `Not valid JSON: ${reason}` };
  }
  const bytes = new TextEncoder().encode(JSON.stringify(input)).length;
  if (bytes > RUN_INPUT_MAX_BYTES) {
    return {
      ok: false,
      message: `Too large: ${Math.ceil(bytes / 1024)} KiB of JSON, at most ${RUN_INPUT_MAX_BYTES / 1024} KiB.`,
    };
  }
  return { ok: true, input };
}
