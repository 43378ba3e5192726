/**
 * GoTrue refused a request with a 4xx other than 429. `code` is GoTrue's error code whichever body
 * shape carried it (`{ code, message }`, `{ error_code, msg }` or OAuth's `{ error,
 * error_description }`); the provider turns it into a `DomainError` for the operation at hand.
 */
export class GoTrueRequestError extends Error {
  readonly status: number;
  readonly code: string | undefined;

  constructor(status: number, code: string | undefined, message: string) {
    super(message);
    this.name = 'GoTrueRequestError';
    this.status = status;
    this.code = code;
  }

  /** Reads GoTrue's error body in any of its shapes. */
  static fromBody(status: number, body: unknown): GoTrueRequestError {
    const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
    const text = (...keys: string[]) => {
      for (const key of keys) if (typeof record[key] === 'string') return record[key] as string;
      return undefined;
    };
    // Since API version 2024-01-01, `code` is the error code; before it, `code` was the HTTP status.
    const code = text('code', 'error_code', 'error');
    const message = text('message', 'msg', 'error_description') ?? `GoTrue answered ${status}.`;
    return new GoTrueRequestError(status, code, message);
  }
}
