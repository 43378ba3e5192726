/**
 * Every machine-readable error code a use case (or a port behind it) can fail with (http-api.md §2).
 * Closed on purpose. The codes only the HTTP transport raises (malformed JSON, a wrong method or
 * media type, the request cut-off) are the HTTP adapter's, not the domain's.
 */
export const ERROR_CODES = [
  'validation_failed',
  'unsupported_option',
  'extension_invalid',
  'unauthorized',
  'invalid_credentials',
  'invalid_refresh_token',
  'forbidden_for_api_key',
  'forbidden_for_role',
  'operator_only',
  'account_disabled',
  'signup_closed',
  'invitation_email_mismatch',
  'not_found',
  'agent_not_found',
  'extension_not_found',
  'email_taken',
  'slug_taken',
  'agent_name_taken',
  'already_member',
  'member_limit_reached',
  'owner_must_transfer',
  'last_operator',
  'project_archived',
  'agent_inactive',
  'script_empty',
  'idempotency_key_reused',
  'context_in_use',
  'project_limit_reached',
  'context_limit_reached',
  'extension_limit_reached',
  'upload_limit_reached',
  'session_ended',
  'session_active',
  'recording_processing',
  'not_recorded',
  'recording_expired',
  'session_on_other_instance',
  'payload_too_large',
  'rate_limited',
  'run_queue_full',
  'provider_rate_limited',
  'provider_error',
  'provider_unavailable',
  'provider_timeout',
  'identity_unavailable',
  'database_unavailable',
  'not_implemented',
  'internal',
] as const;

/** A stable, machine-readable error code. */
export type ErrorCode = (typeof ERROR_CODES)[number];

/** One field that failed validation: a JSON-pointer-like dotted path and a message for people. */
export interface FieldError {
  path: string;
  message: string;
}

/** Options every domain error may carry. */
export interface DomainErrorOptions {
  errors?: FieldError[];
  /** Seconds after which a retry may succeed (rate limits). */
  retryAfterSec?: number;
  cause?: unknown;
}

/**
 * An expected failure. The HTTP adapter maps `code` to a status through one exhaustive table;
 * `message` is the human-readable `detail` and must never carry secrets, SQL or stack traces.
 */
export class DomainError extends Error {
  readonly code: ErrorCode;
  readonly errors: FieldError[] | undefined;
  readonly retryAfterSec: number | undefined;

  constructor(code: ErrorCode, message: string, options: DomainErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.errors = options.errors;
    this.retryAfterSec = options.retryAfterSec;
  }
}

/** Input broke a rule: a field is missing, too long, of the wrong shape. */
export class ValidationError extends DomainError {
  constructor(errors: FieldError[], message = 'The request is not valid.') {
    super('validation_failed', message, { errors });
  }

  /** One failing field. */
  static field(path: string, message: string): ValidationError {
    return new ValidationError([{ path, message }], `${path}: ${message}`);
  }
}

/**
 * The request asks for something this deployment cannot honour (an option of another provider, or
 * a feature the configured provider lacks); `option` names it, so the client can drop or change it.
 */
export class UnsupportedOptionError extends DomainError {
  readonly option: string;

  constructor(option: string, message: string) {
    super('unsupported_option', message, { errors: [{ path: option, message }] });
    this.option = option;
  }
}

/** A resource does not exist, or belongs to someone else (never reveal which). */
export class NotFoundError extends DomainError {
  constructor(what: string, code: 'not_found' | 'agent_not_found' | 'extension_not_found' = 'not_found') {
    super(code, `${what} was not found.`);
  }
}

/** A uniqueness or state conflict, or a count limit reached (another one cannot be added now). */
export class ConflictError extends DomainError {
  constructor(
    code:
      | 'email_taken'
      | 'slug_taken'
      | 'agent_name_taken'
      | 'already_member'
      | 'member_limit_reached'
      | 'owner_must_transfer'
      | 'last_operator'
      | 'project_archived'
      | 'agent_inactive'
      | 'script_empty'
      | 'idempotency_key_reused'
      | 'context_in_use'
      | 'project_limit_reached'
      | 'context_limit_reached'
      | 'extension_limit_reached'
      | 'upload_limit_reached',
    message: string,
  ) {
    super(code, message);
  }
}

/** The caller is not authenticated, or presented bad credentials or tokens. */
export class AuthError extends DomainError {
  constructor(code: 'unauthorized' | 'invalid_credentials' | 'invalid_refresh_token', message: string) {
    super(code, message);
  }
}

/** A project API key tried something only a signed-in user may do, or outside its project. */
export class ForbiddenForApiKeyError extends DomainError {
  constructor(message: string) {
    super('forbidden_for_api_key', message);
  }
}

/**
 * A caller who may not do this (SPEC §17): a project member whose role is below the least role the
 * operation needs (`forbidden_for_role`), someone who is not an operator (`operator_only`), a
 * project or account that an operator disabled (`account_disabled`), a sign-up the sign-up mode
 * refuses (`signup_closed`), or an invitation accepted by another account (`invitation_email_mismatch`).
 */
export class ForbiddenError extends DomainError {
  constructor(
    code:
      | 'forbidden_for_role'
      | 'operator_only'
      | 'account_disabled'
      | 'signup_closed'
      | 'invitation_email_mismatch',
    message: string,
  ) {
    super(code, message);
  }
}

/** Something the contract names that this build does not do yet (501). */
export class NotImplementedError extends DomainError {
  constructor(message: string) {
    super('not_implemented', message);
  }
}

/** A limit of ours was hit; retry after `retryAfterSec`. */
export class RateLimitedError extends DomainError {
  constructor(
    retryAfterSec: number,
    message = 'Too many requests; retry later.',
    code: 'rate_limited' | 'run_queue_full' = 'rate_limited',
  ) {
    super(code, message, { retryAfterSec });
  }
}

/** An outside dependency (identity provider, database) could not serve the request. */
export class UnavailableError extends DomainError {
  constructor(
    code: 'identity_unavailable' | 'database_unavailable',
    message: string,
    options: DomainErrorOptions = {},
  ) {
    super(code, message, options);
  }
}
