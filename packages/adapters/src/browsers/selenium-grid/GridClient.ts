import { GridHttpError, gridHttpError } from './GridHttpError.ts';

/** A new WebDriver session: its id and the capabilities the Grid answered with. */
export interface GridSession {
  readonly sessionId: string;
  readonly capabilities: Readonly<Record<string, unknown>>;
}

/**
 * The few W3C WebDriver calls the provider makes to a Selenium Grid 4 (new session, delete, a read
 * that shows a session is alive), with `fetch`, the configured extra headers and a deadline each.
 * Credentials in the Grid URL (`https://user:pass@grid`) are sent as Basic authentication (`fetch`
 * refuses URLs with credentials). A Grid that answers an error throws `GridHttpError`; one that
 * cannot be reached throws `fetch`'s own error; past the deadline, a `TimeoutError`.
 */
export class GridClient {
  /** The Grid's base URL without credentials, ending in `/`. */
  readonly baseUrl: URL;
  /** Headers sent on every request, WebSocket handshakes included. */
  readonly headers: Readonly<Record<string, string>>;
  private readonly requestTimeoutMs: number;
  private readonly deleteTimeoutMs: number;

  constructor(options: {
    gridUrl: string;
    headers?: Readonly<Record<string, string>> | undefined;
    requestTimeoutMs: number;
    /** How long a delete may take: a Grid 4.48 with ChromeDriver 156 takes ~20 s to stop a driver. */
    deleteTimeoutMs?: number | undefined;
  }) {
    const url = new URL(options.gridUrl);
    const headers: Record<string, string> = {};
    if (url.username || url.password) {
      const user = decodeURIComponent(url.username);
      const password = decodeURIComponent(url.password);
      headers.authorization = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
      url.username = '';
      url.password = '';
    }
    url.search = '';
    url.hash = '';
    if (!url.pathname.endsWith('/')) url.pathname = `${url.pathname}/`;
    this.baseUrl = url;
    this.headers = { ...headers, ...options.headers };
    this.requestTimeoutMs = options.requestTimeoutMs;
    this.deleteTimeoutMs = options.deleteTimeoutMs ?? Math.max(60_000, options.requestTimeoutMs);
  }

  /** The Grid's URL for `path` (relative to the base: `session`, `session/{id}`). */
  url(path: string): URL {
    return new URL(path, this.baseUrl);
  }

  /** `POST /session`: a new session with `capabilities` (W3C `alwaysMatch`), waiting at most `timeoutMs`. */
  async newSession(capabilities: Readonly<Record<string, unknown>>, timeoutMs: number): Promise<GridSession> {
    const body = await this.call(
      'POST',
      'session',
      { capabilities: { alwaysMatch: capabilities } },
      timeoutMs,
    );
    const value = (body as { value?: { sessionId?: unknown; capabilities?: unknown } } | null)?.value;
    if (typeof value?.sessionId !== 'string' || !value.sessionId)
      throw new GridHttpError({
        status: 200,
        error: null,
        message: 'a new session without a session id',
        retryAfter: null,
      });
    const caps = value.capabilities && typeof value.capabilities === 'object' ? value.capabilities : {};
    return { sessionId: value.sessionId, capabilities: caps as Record<string, unknown> };
  }

  /** `DELETE /session/{id}`: true when deleted, false when the Grid does not know the session. */
  async deleteSession(sessionId: string): Promise<boolean> {
    return this.known(() =>
      this.call('DELETE', `session/${encodeURIComponent(sessionId)}`, undefined, this.deleteTimeoutMs),
    );
  }

  /**
   * True while the Grid knows the session, false once it does not (`GET /session/{id}/timeouts`: a
   * read the browser does not notice, and a command, so it also resets the Grid's idle timer).
   */
  async sessionExists(sessionId: string): Promise<boolean> {
    return this.known(() => this.call('GET', `session/${encodeURIComponent(sessionId)}/timeouts`));
  }

  private async known(call: () => Promise<unknown>): Promise<boolean> {
    try {
      await call();
      return true;
    } catch (error) {
      if (error instanceof GridHttpError && (error.status === 404 || error.error === 'invalid session id'))
        return false;
      throw error;
    }
  }

  private async call(
    method: string,
    path: string,
    body?: unknown,
    timeoutMs = this.requestTimeoutMs,
  ): Promise<unknown> {
    const response = await fetch(this.url(path), {
      method,
      headers: {
        accept: 'application/json',
        // The Grid refuses a JSON body whose type does not say UTF-8.
        ...(body === undefined ? {} : { 'content-type': 'application/json; charset=utf-8' }),
        ...this.headers,
      },
      body: body === undefined ? null : JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.text();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = null;
    }
    if (!response.ok) throw gridHttpError(response.status, parsed, response.headers.get('retry-after'));
    if (parsed === null && text)
      throw new GridHttpError({
        status: response.status,
        error: null,
        message: 'a body that is not JSON',
        retryAfter: null,
      });
    return parsed;
  }
}
