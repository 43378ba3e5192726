import { PROXY_DOMAIN_PATTERN_MAX_LENGTH } from '@browserdeck/domain';

/** The longest host name (RFC 1035): longer hosts match no pattern, so matching stays bounded. */
export const MAX_HOST_LENGTH = 253;

/**
 * The most ways a pattern may have to try to match one host: two unbounded repetitions and two
 * two-way choices over a host of `MAX_HOST_LENGTH` (`(.*\.)?[a-z0-9-]+\.(example|test)\.com`).
 * Measured on a 2-core host, 2^22 ways take about 300 ms and 2^18 (just above) about 20 ms.
 */
const MAX_WAYS = (MAX_HOST_LENGTH + 1) ** 2 * 4;

const QUANTIFIER = /^(?:[*+?]|\{(\d+)(,(\d*))?\})\??/;

/** What follows `(` in a group that is not a plain capturing one: `?:`, `?=`, `?!`, `?<=`, `?<!`, `?<name>`. */
const GROUP_PREFIX = /^\?(?::|=|!|<=|<!|<[^>]*>)/;

/**
 * A session proxy's `domainPattern` (Browserbase's field: a regular expression over the host name)
 * as the predicate the egress proxy applies to each request's host: the whole host must match
 * (`.*\.example\.com` matches `a.example.com`, not `a.example.com.evil.test`), case-insensitively.
 * A host longer than `MAX_HOST_LENGTH` matches nothing.
 *
 * Patterns run in the service's own event loop on hosts a page chooses, so a pattern that could
 * backtrack for long is refused: no backreferences, no repeated group that itself repeats or
 * alternates (`(a+)+`, `(a|ab)*`; an optional one such as `(.*\.)?` is fine), and no more than
 * `MAX_WAYS` ways to try on one host, counting every choice the pattern leaves open — each
 * repetition whose count may vary (`*`, `+`, `?`, `{0,99}`: as many ways as counts, up to the host's
 * length) and each alternative — so `.{0,99}.{0,99}.{0,99}.{0,99}x`, `.*.*.*x` and twenty `.?` are
 * refused. Throws an Error saying what is wrong.
 */
export function compileDomainPattern(pattern: string): (host: string) => boolean {
  if (pattern.length === 0 || pattern.length > PROXY_DOMAIN_PATTERN_MAX_LENGTH)
    throw new Error(`must be 1 to ${PROXY_DOMAIN_PATTERN_MAX_LENGTH} characters long`);
  try {
    // Compiled alone first: a pattern that is valid on its own cannot unbalance the anchoring group.
    new RegExp(pattern);
  } catch (error) {
    throw new Error(`is not a valid regular expression (${(error as Error).message})`);
  }
  const problem = backtrackingRisk(pattern);
  if (problem) throw new Error(`${problem}, which could make matching slow; simplify the pattern`);
  const regex = new RegExp(`^(?:${pattern})$`, 'i');
  return (host) => host.length <= MAX_HOST_LENGTH && regex.test(host);
}

interface Group {
  /** The group repeats or alternates inside: repeating it again could backtrack exponentially. */
  risky: boolean;
  /** The ways to match of the alternatives already closed by `|` (their sum). */
  closedWays: number;
  /** The ways to match of the alternative being read (the product of its choices). */
  ways: number;
}

const newGroup = (): Group => ({ risky: false, closedWays: 0, ways: 1 });

/** Why the pattern could backtrack for long, or null. A deliberately conservative scan of its source. */
function backtrackingRisk(source: string): string | null {
  const stack: Group[] = [newGroup()];
  let closed: Group | null = null;
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
      stack.push(newGroup());
      // `(?:`, lookarounds and names: their `?` is no quantifier.
      i += GROUP_PREFIX.exec(source.slice(i + 1))?.[0].length ?? 0;
    } else if (char === ')') {
      const group = stack.length > 1 ? stack.pop()! : newGroup();
      const parent = stack.at(-1)!;
      parent.risky ||= group.risky;
      // An alternation is as many ways as its alternatives have together.
      parent.ways *= group.closedWays + group.ways;
      closed = group;
    } else if (char === '|') {
      const group = stack.at(-1)!;
      group.risky = true;
      group.closedWays += group.ways;
      group.ways = 1;
    } else {
      const match = QUANTIFIER.exec(source.slice(i));
      if (match) {
        const { repeats, counts } = quantifierKind(match);
        if (repeats && justClosed?.risky) return 'it repeats a group that itself repeats or alternates';
        const group = stack.at(-1)!;
        if (repeats) group.risky = true;
        group.ways *= counts;
        i += match[0].length - 1;
      }
    }
  }
  const top = stack[0]!;
  const ways = top.closedWays + top.ways;
  if (ways > MAX_WAYS)
    return `it leaves too many choices open (${ways > 1e12 ? 'over 10^12' : ways} ways to try on a ${MAX_HOST_LENGTH}-character host, at most ${MAX_WAYS})`;
  return null;
}

/**
 * What a quantifier does: `repeats` more than once (`*`, `+`, `{2}`, `{0,3}`; not `?` or `{0,1}`),
 * and in how many `counts` it may match on a host (`?`: 2, `{2,4}`: 3, `*`: the host's length + 1).
 */
function quantifierKind(match: RegExpExecArray): { repeats: boolean; counts: number } {
  const [text, minText, comma, maxText] = match;
  const [min, max] = text.startsWith('*')
    ? [0, Number.POSITIVE_INFINITY]
    : text.startsWith('+')
      ? [1, Number.POSITIVE_INFINITY]
      : text.startsWith('?')
        ? [0, 1]
        : [
            Number(minText),
            comma === undefined
              ? Number(minText)
              : maxText === ''
                ? Number.POSITIVE_INFINITY
                : Number(maxText),
          ];
  // No more repetitions than the host has characters (a repeated empty match stops at once).
  const counts = Math.max(1, Math.min(max, MAX_HOST_LENGTH) - Math.min(min, MAX_HOST_LENGTH) + 1);
  return { repeats: max > 1, counts };
}

/** The index of the `]` closing the character class opened at `start` (in JavaScript `[]` is empty). */
function classEnd(source: string, start: number): number {
  for (let i = start + 1; i < source.length; i++) {
    if (source[i] === '\\') i++;
    else if (source[i] === ']') return i;
  }
  return source.length;
}
