import type { ServerResponse } from 'node:http';

/** The W3C WebDriver error codes this service answers with itself (WebDriver §6.6). */
export type W3cErrorCode =
  | 'invalid session id'
  | 'session not created'
  | 'unknown command'
  | 'unknown method'
  | 'unsupported operation'
  | 'invalid argument'
  | 'timeout'
  | 'unknown error';

/** A W3C WebDriver error answer's body: what every WebDriver client decodes into its own error. */
export interface W3cErrorBody {
  value: { error: W3cErrorCode; message: string; stacktrace: string };
}

/** The body of a W3C WebDriver error `error` saying `message`. */
export function w3cErrorBody(error: W3cErrorCode, message: string): W3cErrorBody {
  return { value: { error, message, stacktrace: '' } };
}

/**
 * Answers a raw request with a W3C WebDriver error (`application/json`, `Cache-Control: no-store`),
 * unless an answer has begun already, in which case the connection is cut: a client never reads a
 * half answer as a whole one.
 */
export function writeW3cError(
  res: ServerResponse,
  status: number,
  error: W3cErrorCode,
  message: string,
): void {
  writeW3cJson(res, status, w3cErrorBody(error, message));
}

/** Answers a raw request with a WebDriver JSON body (or cuts the connection when an answer has begun). */
export function writeW3cJson(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent || res.writableEnded) {
    if (!res.writableEnded) res.destroy();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
  });
  res.end(text);
}
