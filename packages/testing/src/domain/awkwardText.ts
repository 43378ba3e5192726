/**
 * Strings that break SQL put together by splicing values into text: quotes and backslashes (and
 * PostgreSQL's `E'…'`), placeholders (`?`, `??`, `$1`, `:name`), comment and statement markers,
 * `LIKE` wildcards, a character outside the BMP, a right-to-left override and a line separator.
 * `AWKWARD_NAME` keeps the name rule (no control characters, at most 100 characters); the others
 * add what free text and opaque values may hold. Repository contracts store them and expect every
 * character back.
 */
export const AWKWARD_NAME = `O'Brien "x" \\ \\' ? ?? $1 :n %_ -- /* ; E'\\x41' 🚀 \u202eRTL\u202c\u2028 Ü`;

/** `AWKWARD_NAME` with the control characters free text may hold: tab, line feed, carriage return. */
export const AWKWARD_TEXT = `${AWKWARD_NAME}\t\r\n\tline 2`;

/** `AWKWARD_TEXT` with control characters only opaque values may hold (anything but NUL). */
export const AWKWARD_OPAQUE = `${AWKWARD_TEXT}\u0001\u001b[31m\u0007\u007f\u0085\u009f`;
