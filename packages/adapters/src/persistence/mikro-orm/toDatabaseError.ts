import { type DomainError, UnavailableError } from '@browserdeck/domain';
import { ConnectionException, LockWaitTimeoutException } from '@mikro-orm/core';

/** Node socket errors that mean the database server could not be reached or went away. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);

/**
 * PostgreSQL SQLSTATEs of connection trouble: class 08 (connection exception), 53300
 * (too many connections), 57P01..57P05 (shutdown, crash, starting up, idle timeouts).
 */
const POSTGRES_UNAVAILABLE = /^(08\w{3}|53300|57P0[1-5])$/;

/** SQLite result codes of a database that is locked past the busy timeout or cannot be opened. */
const SQLITE_UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|CANTOPEN)/;

/** What `pg` and `pg-pool` say when a connection fails or times out. */
const CONNECTION_MESSAGES =
  /connection terminated|timeout exceeded when trying to connect|connection timeout|client has encountered a connection error|server closed the connection unexpectedly|cannot use a pool after calling end|database is locked|unable to open database file/i;

/**
 * Maps a failure to reach the database (refused, reset, terminated, timed out, locked past the busy
 * timeout) to `UnavailableError('database_unavailable')`; `undefined` for anything else, which is
 * a real bug or a constraint the caller handles.
 */
export function toDatabaseError(error: unknown): DomainError | undefined {
  return isConnectionFailure(error, 0)
    ? new UnavailableError('database_unavailable', 'The database is not answering; try again shortly.', {
        cause: error,
      })
    : undefined;
}

function isConnectionFailure(error: unknown, depth: number): boolean {
  if (depth > 5 || typeof error !== 'object' || error === null) return false;
  if (error instanceof ConnectionException || error instanceof LockWaitTimeoutException) return true;
  const { code, message, cause, errors } = error as {
    code?: unknown;
    message?: unknown;
    cause?: unknown;
    errors?: unknown;
  };
  if (typeof code === 'string') {
    if (NETWORK_CODES.has(code) || POSTGRES_UNAVAILABLE.test(code) || SQLITE_UNAVAILABLE.test(code)) {
      return true;
    }
  }
  if (typeof message === 'string' && CONNECTION_MESSAGES.test(message)) return true;
  // Node reports a refused dual-stack connect (::1 and 127.0.0.1) as an AggregateError.
  if (Array.isArray(errors) && errors.some((inner) => isConnectionFailure(inner, depth + 1))) return true;
  return isConnectionFailure(cause, depth + 1);
}
