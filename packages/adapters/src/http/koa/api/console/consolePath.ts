/** `.`, `..`, or a name that starts with a dot (`.env`): never served. */
const HIDDEN_OR_DOT = /^\./;

/**
 * The segments of a path below `/console` (`ctx.path` is still percent-encoded), decoded, or
 * `undefined` when it names nothing the console may serve: a dot segment (`..`, also encoded as
 * `%2e%2e`), a hidden file, a backslash, a NUL, an encoded slash or a malformed escape. Empty
 * segments (`//`) are dropped.
 */
export function consolePath(encoded: string): string[] | undefined {
  const segments: string[] = [];
  for (const raw of encoded.split('/')) {
    if (raw === '') continue;
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return undefined;
    }
    if (HIDDEN_OR_DOT.test(segment) || /[\\/\0]/.test(segment)) return undefined;
    segments.push(segment);
  }
  return segments;
}
