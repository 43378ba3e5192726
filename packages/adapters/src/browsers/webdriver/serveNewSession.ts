import type { ServerResponse } from 'node:http';
import { planNewSession } from './planNewSession.ts';
import type { WebDriverUpstream } from './WebDriverUpstream.ts';
import { writeW3cError, writeW3cJson } from './w3cError.ts';
import type { WebDriverTimeouts } from './webdriverTimeouts.ts';

/** How long the session's WebDriver server may take to set its timeouts. */
const SET_TIMEOUTS_MS = 30_000;

/**
 * Answers a `POST /session` (its `body`, read) on a session's endpoint as `planNewSession` decides:
 * refused with a W3C error, or, once the session's timeouts are set at its WebDriver server (which
 * also shows that it still answers), with the session's own WebDriver session.
 */
export async function serveNewSession(
  res: ServerResponse,
  body: Buffer,
  upstream: WebDriverUpstream,
): Promise<void> {
  let parsed: unknown = {};
  try {
    if (body.length > 0) parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return writeW3cError(res, 400, 'invalid argument', 'The new-session body is not JSON.');
  }
  const plan = planNewSession(parsed, upstream);
  if (plan.kind === 'refuse') return writeW3cError(res, plan.status, plan.error, plan.message);
  const failed = await setTimeouts(upstream, plan.timeouts);
  if (failed)
    return writeW3cError(
      res,
      500,
      'session not created',
      `The session’s WebDriver server did not take its timeouts: ${failed}`,
    );
  writeW3cJson(res, 200, plan.answer);
}

/** Sets the session's timeouts at its WebDriver server; null when done, else what went wrong. */
async function setTimeouts(upstream: WebDriverUpstream, timeouts: WebDriverTimeouts): Promise<string | null> {
  const url = `${upstream.baseUrl.replace(/\/+$/, '')}/session/${encodeURIComponent(upstream.webdriverSessionId)}/timeouts`;
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        accept: 'application/json',
        // A Grid refuses a JSON body whose type does not say UTF-8.
        'content-type': 'application/json; charset=utf-8',
        ...upstream.headers,
      },
      body: JSON.stringify(timeouts),
      signal: AbortSignal.timeout(SET_TIMEOUTS_MS),
    });
    if (response.ok) {
      await response.body?.cancel();
      return null;
    }
    const answer = (await response.json().catch(() => null)) as { value?: { message?: unknown } } | null;
    return String(answer?.value?.message ?? `HTTP ${response.status}`);
  } catch (error) {
    return (error as { cause?: NodeJS.ErrnoException }).cause?.code ?? (error as Error).message;
  }
}
