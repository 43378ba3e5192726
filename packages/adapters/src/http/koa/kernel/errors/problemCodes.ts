import { ERROR_CODES, type ErrorCode } from '@browserdeck/domain';

/**
 * The codes only the HTTP transport raises (http-api.md §2): a body that is not JSON, a method or
 * media type the route does not take, the request cut-off, the web console missing. No use case
 * raises them, so they are not the domain's (`ERROR_CODES`); the HTTP layer answers them as
 * `HttpError`s.
 */
export const HTTP_ERROR_CODES = [
  'malformed_json',
  'method_not_allowed',
  'unsupported_media_type',
  'request_timeout',
  'console_unavailable',
] as const;

/** One of `HTTP_ERROR_CODES`. */
export type HttpErrorCode = (typeof HTTP_ERROR_CODES)[number];

/** Every code a problem can carry: the domain's and the transport's. */
export const PROBLEM_CODES = [...ERROR_CODES, ...HTTP_ERROR_CODES] as const;

/** One of `PROBLEM_CODES`: a stable, machine-readable error code of the HTTP API. */
export type ProblemCode = ErrorCode | HttpErrorCode;
