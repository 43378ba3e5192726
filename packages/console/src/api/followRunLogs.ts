import { EventSource } from 'eventsource';
import { ApiError } from './ApiError.ts';
import type { Run, RunLogLine } from './types.ts';

/** Where the stream stands: connecting, receiving, reconnecting after a drop, over, or failed. */
export type RunLogStreamState = 'connecting' | 'open' | 'reconnecting' | 'ended' | 'failed';

/** What `followRunLogs` reports. */
export interface RunLogStreamHandlers {
  /** One log line, in `seq` order. */
  onLine(line: RunLogLine): void;
  /** The terminal run: the stream is closed. */
  onEnd(run: Run): void;
  /** A change of state; `problem` says why it `failed` (or why it is `reconnecting`). */
  onState(state: RunLogStreamState, problem?: unknown): void;
}

/** What the stream is fetched with: a `fetch` that adds the access token (`ApiClient.fetchAuthorized`). */
export type AuthorizedFetch = (url: string | URL, init: RequestInit) => Promise<Response>;

/** A stream being followed. */
export interface RunLogFollower {
  /** Stops following (no reconnect); idempotent. */
  close(): void;
  /** Whether it is closed: by `close`, by the `end` event, or because it failed. */
  readonly closed: boolean;
}

/** The body of an answer that is not the stream, as openapi-fetch would read it for `ApiError`. */
async function problemOf(response: Response): Promise<ApiError> {
  const text = await response.text().catch(() => '');
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON (a proxy's page): the text is all there is.
  }
  return ApiError.fromAnswer(response, body);
}

/**
 * Follows a run's log stream (`GET …/runs/{id}/logs/stream`, http-api.md §11): every `log` event is
 * a line, the `end` event the terminal run, after which the stream is closed. A dropped connection
 * is resumed by the `EventSource` itself with `Last-Event-ID` (the last line's `seq`), so no line is
 * shown twice or missed; an answer other than the stream (a 404, an ended sign-in) fails it for good,
 * with the server's problem.
 */
export function followRunLogs(
  url: string,
  fetchAuthorized: AuthorizedFetch,
  handlers: RunLogStreamHandlers,
): RunLogFollower {
  let problem: unknown;
  const source = new EventSource(url, {
    fetch: async (input, init) => {
      problem = undefined;
      const response = await fetchAuthorized(input, init as RequestInit);
      if (response.status !== 200) problem = await problemOf(response);
      return response;
    },
  });
  const fail = (error: unknown) => {
    source.close();
    handlers.onState('failed', error);
  };
  source.addEventListener('open', () => handlers.onState('open'));
  source.addEventListener('log', (event) => {
    try {
      handlers.onLine(JSON.parse(event.data) as RunLogLine);
    } catch (error) {
      fail(error);
    }
  });
  source.addEventListener('end', (event) => {
    source.close();
    try {
      handlers.onEnd(JSON.parse(event.data) as Run);
      handlers.onState('ended');
    } catch (error) {
      handlers.onState('failed', error);
    }
  });
  source.addEventListener('error', (event) => {
    if (source.readyState === source.CLOSED) {
      handlers.onState('failed', problem ?? new Error(event.message ?? 'The log stream failed.'));
    } else {
      handlers.onState('reconnecting', event.message);
    }
  });
  return {
    close: () => source.close(),
    get closed() {
      return source.readyState === source.CLOSED;
    },
  };
}
