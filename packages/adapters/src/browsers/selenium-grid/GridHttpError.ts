/** A Grid answer that is not a success: its HTTP status and the W3C error it carried, if any. */
export class GridHttpError extends Error {
  /** The HTTP status. */
  readonly status: number;
  /** The W3C error code (`session not created`, `invalid session id`, …); null when the body had none. */
  readonly error: string | null;
  /** The first line of the Grid's message, cut short; null when the body had none. */
  readonly gridMessage: string | null;
  /** The `Retry-After` header, as sent. */
  readonly retryAfter: string | null;

  constructor(init: {
    status: number;
    error: string | null;
    message: string | null;
    retryAfter: string | null;
  }) {
    super(
      `The Grid answered ${init.status}${init.error ? ` (${init.error})` : ''}${init.message ? `: ${init.message}` : ''}`,
    );
    this.name = 'GridHttpError';
    this.status = init.status;
    this.error = init.error;
    this.gridMessage = init.message;
    this.retryAfter = init.retryAfter;
  }
}

/** The longest Grid message kept (its first line; Grid messages go on with host and build details). */
const MAX_MESSAGE_CHARS = 300;

/** Reads a W3C error body `{ value: { error, message } }` into a `GridHttpError`. */
export function gridHttpError(status: number, body: unknown, retryAfter: string | null): GridHttpError {
  const value = (body as { value?: unknown } | null)?.value as
    | { error?: unknown; message?: unknown }
    | undefined;
  const error = typeof value?.error === 'string' ? value.error : null;
  const raw = typeof value?.message === 'string' ? value.message.split('\n')[0]!.trim() : '';
  const message = raw ? (raw.length > MAX_MESSAGE_CHARS ? `${raw.slice(0, MAX_MESSAGE_CHARS)}…` : raw) : null;
  return new GridHttpError({ status, error, message, retryAfter });
}
