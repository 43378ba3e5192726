/** The longest `domainPattern` accepted. */
export const DOMAIN_PATTERN_MAX_LENGTH = 256;

/** Most unbounded repetitions (`*`, `+`, `{n,}`) in one pattern: each multiplies the worst case by a host's length. */
const MAX_UNBOUNDED = 3;

const QUANTIFIER = /^(?:[*+?]|\{(\d+)(,(\d*))?\})\??/;

/**
 * A session proxy's `domainPattern` (Browserbase's field: a regular expression over the host name)
 * as the predicate the egress proxy applies to each request's host: the whole host must match
 * (`.*\.example\.com` matches `a.example.com`, not `a.example.com.evil.test`), case-insensitively.
 *
 * Patterns run in the service's own event loop on hosts a page chooses, so a pattern that could
 * backtrack for long is refused: no backreferences, no repeated group that itself repeats or
 * alternates (`(a+)+`, `(a|ab)*`; an optional one such as `(.*\.)?` is fine), and at most three
 * unbounded repetitions. Throws an Error saying what is wrong.
 */
export function compileDomainPattern(pattern: string): (host: string) => boolean {
  if (pattern.length === 0 || pattern.length > DOMAIN_PATTERN_MAX_LENGTH)
    throw new Error(`must be 1 to ${DOMAIN_PATTERN_MAX_LENGTH} characters long`);
  try {
    // Compiled alone first: a pattern that is valid on its own cannot unbalance the anchoring group.
    new RegExp(pattern);
  } catch (error) {
    throw new Error(`is not a valid regular expression (${(error as Error).message})`);
  }
  const problem = backtrackingRisk(pattern);
  if (problem) throw new Error(`${problem}, which could make matching slow; simplify the pattern`);
  const regex = new RegExp(`^(?:${pattern})$`, 'i');
  return (host) => regex.test(host);
}

interface Group {
  /** The group repeats or alternates inside: repeating it again could backtrack exponentially. */
  risky: boolean;
}

/** Why the pattern could backtrack for long, or null. A deliberately conservative scan of its source. */
function backtrackingRisk(source: string): string | null {
  const stack: Group[] = [{ risky: false }];
  let closed: Group | null = null;
  let unbounded = 0;
  for (let i = 0; i < source.length; i++) {
    const char = source[i]!;
    const justClosed = closed;
    closed = null;
    if (char === '\\') {
      const next = source[i + 1] ?? '';
      if (/[1-9k]/.test(next)) return 'it uses a backreference';
      i++;
    } else if (char === '[') {
      i = classEnd(source, i);
    } else if (char === '(') {
      stack.push({ risky: false });
    } else if (char === ')') {
      const group = stack.length > 1 ? stack.pop()! : { risky: false };
      stack.at(-1)!.risky ||= group.risky;
      closed = group;
    } else if (char === '|') {
      stack.at(-1)!.risky = true;
    } else {
      const match = QUANTIFIER.exec(source.slice(i));
      if (match) {
        const text = match[0];
        const { repeats, unbounded: endless } = quantifierKind(match);
        if (endless) unbounded++;
        if (unbounded > MAX_UNBOUNDED) return `it repeats without bound more than ${MAX_UNBOUNDED} times`;
        if (repeats && justClosed?.risky) return 'it repeats a group that itself repeats or alternates';
        if (repeats) stack.at(-1)!.risky = true;
        i += text.length - 1;
      }
    }
  }
  return null;
}

/**
 * What a quantifier does: `repeats` more than once (`*`, `+`, `{2}`, `{0,3}`; not `?` or `{0,1}`),
 * and `unbounded` (`*`, `+`, `{2,}`).
 */
function quantifierKind(match: RegExpExecArray): { repeats: boolean; unbounded: boolean } {
  const [text, min, comma, max] = match;
  if (text.startsWith('*') || text.startsWith('+')) return { repeats: true, unbounded: true };
  if (text.startsWith('?')) return { repeats: false, unbounded: false };
  if (comma === undefined) return { repeats: Number(min) > 1, unbounded: false };
  if (max === '') return { repeats: true, unbounded: true };
  return { repeats: Number(max) > 1, unbounded: false };
}

/** The index of the `]` closing the character class opened at `start` (in JavaScript `[]` is empty). */
function classEnd(source: string, start: number): number {
  for (let i = start + 1; i < source.length; i++) {
    if (source[i] === '\\') i++;
    else if (source[i] === ']') return i;
  }
  return source.length;
}
