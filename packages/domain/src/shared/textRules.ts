/**
 * Which characters a stored string may hold (http-api.md §10). Three kinds of field:
 *
 * - `name`: names, e-mails and ids (project, agent and session names, provider ids). No control
 *   character at all: C0 (U+0000–U+001F), DEL and C1 (U+007F–U+009F).
 * - `text`: free text for people (an agent's description). Tab, line feed and carriage return are
 *   allowed; every other control character is not.
 * - `opaque`: program text and values handed on as they are (`script`, env values, `metadata`
 *   strings). Anything but NUL, which PostgreSQL cannot store in `text` or `jsonb` and which ends a
 *   C string (an environment variable cannot hold it).
 *
 * No kind may hold an unpaired UTF-16 surrogate (`"\ud800"` in JSON): UTF-8 cannot encode it, so
 * the database would silently store U+FFFD instead.
 */
export const TEXT_KINDS = ['name', 'text', 'opaque'] as const;

/** One of `TEXT_KINDS`. */
export type TextKind = (typeof TEXT_KINDS)[number];

/** The control characters refused in names: U+0000–U+001F and U+007F–U+009F. */
export const CONTROL_CHARACTER_RANGES = [
  [0x00, 0x1f],
  [0x7f, 0x9f],
] as const;

/** Control characters free text (`text`) may hold: tab, line feed, carriage return. */
export const TEXT_ALLOWED_CONTROLS = ['\t', '\n', '\r'] as const;

/** What each kind refuses, as a client reads it in `errors[].message`. */
export const TEXT_RULE_MESSAGES: Readonly<Record<TextKind | 'surrogate', string>> = {
  name: 'must not contain control characters (U+0000–U+001F, U+007F–U+009F)',
  text: 'must not contain control characters other than tab, line feed and carriage return',
  opaque: 'must not contain NUL (U+0000)',
  surrogate: 'must be well-formed Unicode (no unpaired surrogate)',
};

const ALLOWED_IN_TEXT = new Set<number>(TEXT_ALLOWED_CONTROLS.map((c) => c.charCodeAt(0)));

function isControl(code: number): boolean {
  return CONTROL_CHARACTER_RANGES.some(([from, to]) => code >= from && code <= to);
}

function refuses(kind: TextKind, code: number): boolean {
  if (kind === 'opaque') return code === 0;
  return isControl(code) && !(kind === 'text' && ALLOWED_IN_TEXT.has(code));
}

/** Why `value` breaks the rule of `kind`, or `undefined` when it keeps it. */
export function textProblem(value: string, kind: TextKind): string | undefined {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    // Every refused character is below U+00A0; surrogates are checked once, below.
    if (code < 0xa0 && refuses(kind, code)) return TEXT_RULE_MESSAGES[kind];
  }
  return value.isWellFormed() ? undefined : TEXT_RULE_MESSAGES.surrogate;
}

/** A value met while walking JSON, and how it was reached (built into a path only when reported). */
interface Visit {
  value: unknown;
  parent: Visit | undefined;
  step: string;
}

/** Longest path a message names; a deeper one keeps its last characters after `…`. */
const MAX_REPORTED_PATH = 200;

function pathOf(visit: Visit): string {
  const steps: string[] = [];
  for (let at: Visit | undefined = visit; at?.parent; at = at.parent) steps.push(at.step);
  steps.reverse();
  const path = steps.map((step, i) => (i === 0 || step.startsWith('[') ? step : `.${step}`)).join('');
  return path.length > MAX_REPORTED_PATH ? `…${path.slice(-MAX_REPORTED_PATH)}` : path;
}

/**
 * Why some key or string inside the JSON value `value` breaks the `opaque` rule, naming where
 * (`a.b[2]`), or `undefined`. Walks without recursion, so nesting depth cannot exhaust the stack.
 */
export function jsonTextProblem(value: unknown): string | undefined {
  const pending: Visit[] = [{ value, parent: undefined, step: '' }];
  const where = (problem: string, visit: Visit) => {
    const path = pathOf(visit);
    return path ? `${problem} (at ${path})` : problem;
  };
  for (let visit = pending.pop(); visit; visit = pending.pop()) {
    const item = visit.value;
    if (typeof item === 'string') {
      const problem = textProblem(item, 'opaque');
      if (problem) return where(problem, visit);
    } else if (Array.isArray(item)) {
      for (let i = 0; i < item.length; i++) pending.push({ value: item[i], parent: visit, step: `[${i}]` });
    } else if (typeof item === 'object' && item !== null) {
      for (const [key, element] of Object.entries(item)) {
        const problem = textProblem(key, 'opaque');
        if (problem) return where(`${problem} in a key`, visit);
        pending.push({ value: element, parent: visit, step: key });
      }
    }
  }
  return undefined;
}
