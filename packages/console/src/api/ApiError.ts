/** One field a problem names: its dotted path in the request and a message for people. */
export interface FieldProblem {
  path: string;
  message: string;
}

/**
 * An error answer of the API (an RFC 9457 problem, http-api.md §2), or a request that got no answer
 * at all (`status` 0). The console shows `title`, `detail`, the field errors next to their fields and
 * the request id, so nothing the server said is hidden.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly title: string;
  readonly detail: string;
  readonly code: string;
  readonly requestId: string | undefined;
  readonly errors: FieldProblem[];

  constructor(init: {
    status: number;
    title: string;
    detail: string;
    code: string;
    requestId?: string | undefined;
    errors?: FieldProblem[] | undefined;
  }) {
    super(`${init.title}: ${init.detail}`);
    this.name = 'ApiError';
    this.status = init.status;
    this.title = init.title;
    this.detail = init.detail;
    this.code = init.code;
    this.requestId = init.requestId;
    this.errors = init.errors ?? [];
  }

  /** The message of the field at `path` (or below it, e.g. `envVars.KEY` for `envVars`), if any. */
  fieldMessage(path: string): string | undefined {
    return this.errors.find((e) => e.path === path || e.path.startsWith(`${path}.`))?.message;
  }

  /**
   * Builds the error from an answer that is not 2xx and its body as openapi-fetch read it (the parsed
   * JSON, or the text when it was not JSON), whatever the body says.
   */
  static fromAnswer(response: Response, parsedBody: unknown): ApiError {
    const requestId = response.headers.get('X-Request-Id') ?? undefined;
    const text = typeof parsedBody === 'string' ? parsedBody : '';
    // Not JSON (a proxy's error page, say): the status line and the text are all there is.
    const body: Record<string, unknown> =
      parsedBody && typeof parsedBody === 'object' ? (parsedBody as Record<string, unknown>) : {};
    const str = (value: unknown) => (typeof value === 'string' ? value : undefined);
    const errors = Array.isArray(body.errors)
      ? body.errors.flatMap((e: unknown) => {
          const entry = e as Record<string, unknown>;
          const path = str(entry?.path);
          const message = str(entry?.message);
          return path !== undefined && message !== undefined ? [{ path, message }] : [];
        })
      : [];
    return new ApiError({
      status: response.status,
      title: str(body.title) ?? (response.statusText || `HTTP ${response.status}`),
      detail: str(body.detail) ?? str(body.message) ?? text.slice(0, 300),
      code: str(body.code) ?? `http_${response.status}`,
      requestId: str(body.requestId) ?? requestId,
      errors,
    });
  }

  /** The error for a request that failed before any answer (network down, server stopped). */
  static network(cause: unknown): ApiError {
    return new ApiError({
      status: 0,
      title: 'No answer from the server',
      detail: cause instanceof Error ? cause.message : String(cause),
      code: 'network_error',
    });
  }
}
