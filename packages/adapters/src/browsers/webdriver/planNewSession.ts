import { type CapabilityProblem, capabilityProblems } from './capabilityProblems.ts';
import { publicCapabilities } from './publicCapabilities.ts';
import { requestedCapabilities } from './requestedCapabilities.ts';
import { readTimeouts, sessionTimeouts, type WebDriverTimeouts } from './webdriverTimeouts.ts';

/** The session a WebDriver endpoint serves: its WebDriver session id and that session's capabilities. */
export interface ServedWebDriverSession {
  readonly webdriverSessionId: string;
  /** The capabilities its WebDriver server answered when the WebDriver session was made. */
  readonly capabilities: Readonly<Record<string, unknown>>;
}

/** What to answer a `POST /session` on a session's endpoint. */
export type NewSessionPlan =
  /** Set the session's timeouts to `timeouts`, then answer `answer` (200). */
  | {
      readonly kind: 'attach';
      readonly timeouts: WebDriverTimeouts;
      readonly answer: { value: { sessionId: string; capabilities: Record<string, unknown> } };
    }
  | {
      readonly kind: 'refuse';
      readonly status: 400 | 500;
      readonly error: 'invalid argument' | 'session not created';
      readonly message: string;
    };

/**
 * Plans the answer to a new-session request (`body`, parsed) on the endpoint of one Browserdeck
 * session: the endpoint creates no browser, so a request is answered with the session's own
 * WebDriver session when one of its capability sets (`requestedCapabilities`) is honoured by it
 * (`capabilityProblems`), in W3C's new-session shape `{ value: { sessionId, capabilities } }` with
 * the session's capabilities (`publicCapabilities`). Its timeouts are those it was made with,
 * overridden by the matched set's `timeouts`, so each new client starts from the same timeouts.
 * A malformed request is `invalid argument` (400); one no set of which is honoured is `session not
 * created` (500, as W3C answers it), its message naming each capability and why.
 */
export function planNewSession(body: unknown, session: ServedWebDriverSession): NewSessionPlan {
  const requested = requestedCapabilities(body);
  if ('invalid' in requested)
    return { kind: 'refuse', status: 400, error: 'invalid argument', message: requested.invalid };
  const { candidates } = requested;
  const problems = candidates.map((candidate) => capabilityProblems(candidate, session.capabilities));
  const invalid = problems.flat().filter((problem) => problem.invalid);
  if (invalid.length > 0)
    return {
      kind: 'refuse',
      status: 400,
      error: 'invalid argument',
      message: `Invalid capabilities: ${describe(invalid)}.`,
    };
  const matched = problems.findIndex((list) => list.length === 0);
  if (matched === -1)
    return {
      kind: 'refuse',
      status: 500,
      error: 'session not created',
      message:
        `This endpoint serves one running browser (${browserOf(session.capabilities)}), which cannot honour ` +
        `${candidates.length > 1 ? 'any of the requested capability sets' : 'the requested capabilities'}: ` +
        `${problems.map((list, i) => (candidates.length > 1 ? `firstMatch[${i}]: ` : '') + describe(list)).join('; ')}.`,
    };
  const timeouts = {
    ...sessionTimeouts(session.capabilities),
    ...readTimeouts(candidates[matched]?.timeouts),
  };
  return {
    kind: 'attach',
    timeouts,
    answer: {
      value: {
        sessionId: session.webdriverSessionId,
        capabilities: publicCapabilities(session.capabilities, timeouts),
      },
    },
  };
}

function describe(problems: readonly CapabilityProblem[]): string {
  return problems.map((problem) => `${problem.capability}: ${problem.why}`).join('; ');
}

/** `chrome-headless-shell 156.0.8078.114 on linux`, from what the session's capabilities say. */
function browserOf(capabilities: Readonly<Record<string, unknown>>): string {
  const name = typeof capabilities.browserName === 'string' ? capabilities.browserName : 'Chromium';
  const version = typeof capabilities.browserVersion === 'string' ? ` ${capabilities.browserVersion}` : '';
  const platform =
    typeof capabilities.platformName === 'string' && capabilities.platformName
      ? ` on ${capabilities.platformName}`
      : '';
  return `${name}${version}${platform}`;
}
