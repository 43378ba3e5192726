import { AuthError, ConflictError, ValidationError } from '@browserdeck/domain';
import { GoTrueRequestError } from './GoTrueRequestError.ts';

/** The GoTrue calls whose refusals mean something to the domain. */
export type GoTrueOperation = 'signUp' | 'signIn' | 'refresh';

/** Same words for unknown e-mails and wrong passwords (http-api.md §3). */
export const INVALID_CREDENTIALS_MESSAGE = 'E-mail or password is wrong.';
/** Unknown, expired, revoked or reused refresh tokens. */
export const INVALID_REFRESH_TOKEN_MESSAGE = 'The refresh token is not valid.';

const EMAIL_TAKEN = new Set(['user_already_exists', 'email_exists', 'identity_already_exists']);
const BAD_CREDENTIALS = new Set(['invalid_credentials', 'invalid_grant', 'user_not_found', 'user_banned']);

/**
 * Turns a GoTrue refusal into the domain's error for `operation`. Errors that are not
 * `GoTrueRequestError`s (already domain errors, bugs) pass through; refusals with no domain meaning
 * (signups disabled, a provider turned off) become plain errors: a deployment fault, answered 500.
 */
export function mapGoTrueError(operation: GoTrueOperation, error: unknown): unknown {
  if (!(error instanceof GoTrueRequestError)) return error;
  const { code, message } = error;
  if (operation === 'refresh') {
    // refresh_token_not_found, refresh_token_already_used, session_not_found, session_expired,
    // invalid_grant (older GoTrue): for the caller all the same.
    return new AuthError('invalid_refresh_token', INVALID_REFRESH_TOKEN_MESSAGE);
  }
  if (operation === 'signUp') {
    if ((code && EMAIL_TAKEN.has(code)) || /already (been )?registered/i.test(message)) {
      return new ConflictError('email_taken', 'An account with this e-mail already exists.');
    }
    if (code === 'weak_password') return ValidationError.field('password', message);
    if (code === 'email_address_invalid') return ValidationError.field('email', message);
    if (code === 'validation_failed') return new ValidationError([{ path: '', message }], message);
  }
  if (operation === 'signIn') {
    if (code === 'email_not_confirmed' || /email not confirmed/i.test(message)) {
      return new AuthError('invalid_credentials', 'The e-mail address has not been confirmed yet.');
    }
    if ((code && BAD_CREDENTIALS.has(code)) || error.status === 400) {
      return new AuthError('invalid_credentials', INVALID_CREDENTIALS_MESSAGE);
    }
  }
  return new Error(`GoTrue refused ${operation}: ${error.status} ${code ?? '(no code)'}: ${message}`, {
    cause: error,
  });
}
