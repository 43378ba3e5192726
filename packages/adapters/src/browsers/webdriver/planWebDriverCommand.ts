import type { W3cErrorCode } from './w3cError.ts';

/** The ids a session's WebDriver endpoint answers to. */
export interface WebDriverSessionIds {
  /** The WebDriver session id of the browser (chromedriver's, or the Grid's). */
  readonly webdriverSessionId: string;
  /** Other ids that name the same session in a command's path: its provider and Browserdeck ids. */
  readonly aliases: readonly string[];
}

/** What to do with one WebDriver request on a session's endpoint. */
export type WebDriverPlan =
  /** Send it on, to `path` under the upstream's base, with its body as it is. */
  | { readonly kind: 'forward'; readonly path: string }
  /** Send it on to `path` once its body's CDP command (`{ cmd, params }`) passed the CDP policy. */
  | { readonly kind: 'cdp'; readonly path: string }
  /** A new session: answered with the bound session's own WebDriver session (`planNewSession`, on its body). */
  | { readonly kind: 'newSession' }
  /** Answer it here, without the upstream. */
  | { readonly kind: 'answer'; readonly status: number; readonly body: unknown }
  /** Refuse it here with a W3C error. */
  | {
      readonly kind: 'refuse';
      readonly status: number;
      readonly error: W3cErrorCode;
      readonly message: string;
    };

/** Commands that carry one CDP command in their body (`{ cmd, params }`): checked by the CDP policy. */
const CDP_COMMANDS: readonly RegExp[] = [
  /^[a-z]+\/cdp\/execute$/, // goog/cdp/execute (selenium-webdriver's sendAndGetDevToolsCommand), ms/…
  /^chromium\/send_command(_and_get_result)?$/,
];

/** Commands refused on every session, with why (what to use instead). */
const REFUSED_COMMANDS: ReadonlyArray<readonly [RegExp, string]> = [
  [
    /^file$/,
    'uploads through chromedriver are not supported: upload the file with POST …/sessions/{session_id}/uploads and type the path it answers',
  ],
  [/^chromium\/send_command_from_websocket$/, 'DevTools over WebDriver is served by goog/cdp/execute only'],
  [/^se\/(cdp|bidi|vnc)$/, "DevTools and BiDi WebSockets are not served here: use the session's connectUrl"],
];

/** Segments the endpoint never sends on: empty, dot segments (also encoded) and encoded slashes. */
function badSegment(segment: string): boolean {
  let decoded: string;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    return true;
  }
  return decoded === '' || decoded === '.' || decoded === '..' || /[/\\]/.test(decoded);
}

/**
 * Decides what a session's WebDriver endpoint (`seleniumRemoteUrl`) does with a request for
 * `subpath` (what follows the endpoint's base, e.g. `/session/abc/url`). The endpoint is bound to one
 * session: a command for it, named by its WebDriver id or an alias, is sent on under its WebDriver
 * id; any other session id is `invalid session id`; a new session (`POST /session`) is answered
 * with the bound session (`newSession`: it creates no browser); `DELETE /session/{id}` answers
 * success and ends nothing (release ends the browser), so a next `POST /session` gets the same
 * browser again; `GET /status` is answered here (the upstream's would describe other sessions, or
 * the Grid's nodes). DevTools commands are checked by the CDP policy (`cdp`) or refused; a path with
 * dot segments or encoded slashes is never sent on.
 */
export function planWebDriverCommand(
  method: string,
  subpath: string,
  ids: WebDriverSessionIds,
): WebDriverPlan {
  const segments = subpath.split('/').slice(1);
  const unknown: WebDriverPlan = {
    kind: 'refuse',
    status: 404,
    error: 'unknown command',
    message: `${method} ${subpath || '/'} is not a WebDriver command of this endpoint.`,
  };
  if (segments.length === 0 || segments.some(badSegment)) return unknown;
  const [first, id, ...rest] = segments;
  if (first === 'status' && segments.length === 1)
    return method === 'GET'
      ? {
          kind: 'answer',
          status: 200,
          body: {
            value: {
              ready: true,
              message:
                'This endpoint serves one existing session: a new session (POST /session) is answered with it.',
            },
          },
        }
      : unknownMethod(method, subpath);
  if (first !== 'session') return unknown;
  if (id === undefined) return method === 'POST' ? { kind: 'newSession' } : unknownMethod(method, subpath);
  const decodedId = decodeURIComponent(id);
  if (decodedId !== ids.webdriverSessionId && !ids.aliases.includes(decodedId))
    return {
      kind: 'refuse',
      status: 404,
      error: 'invalid session id',
      message: `This endpoint serves one session only; ${decodedId} is not it.`,
    };
  if (rest.length === 0 && method === 'DELETE') return { kind: 'answer', status: 200, body: { value: null } };
  const command = rest.join('/');
  const path = `/session/${encodeURIComponent(ids.webdriverSessionId)}${rest.length ? `/${command}` : ''}`;
  for (const [pattern, why] of REFUSED_COMMANDS)
    if (pattern.test(command))
      return { kind: 'refuse', status: 403, error: 'unsupported operation', message: `${command}: ${why}.` };
  if (CDP_COMMANDS.some((pattern) => pattern.test(command)))
    return method === 'POST' ? { kind: 'cdp', path } : unknownMethod(method, subpath);
  return { kind: 'forward', path };
}

function unknownMethod(method: string, subpath: string): WebDriverPlan {
  return {
    kind: 'refuse',
    status: 405,
    error: 'unknown method',
    message: `${method} is not allowed on ${subpath}.`,
  };
}
