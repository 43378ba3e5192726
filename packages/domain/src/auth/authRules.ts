import { Checks, isPlainObject, jsonByteLength } from '../shared/checks.ts';

/** Longest e-mail address accepted (RFC 5321 path limit). */
export const EMAIL_MAX_LENGTH = 254;
/** Password length bounds, in characters. */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 256;
/** Largest sign-up `metadata` object, serialized as JSON, in bytes. */
export const USER_METADATA_MAX_BYTES = 8 * 1024;
/**
 * A pragmatic address shape: one `@`, no spaces, a dotted domain. Deliverability is the mailer's job;
 * this only turns away what cannot be an address.
 */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

/** Trims and lower-cases an e-mail address, the form it is stored and compared in. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Validates sign-up input (after normalization); throws a `ValidationError` naming each field. */
export function checkSignUp(input: { email: string; password: string; metadata: unknown }): void {
  new Checks()
    .require(
      input.email.length <= EMAIL_MAX_LENGTH && EMAIL_PATTERN.test(input.email),
      'email',
      `must be a valid e-mail address of at most ${EMAIL_MAX_LENGTH} characters`,
    )
    .length(input.password, 'password', PASSWORD_MIN_LENGTH, PASSWORD_MAX_LENGTH)
    .require(isPlainObject(input.metadata), 'metadata', 'must be a JSON object')
    .require(
      jsonByteLength(input.metadata ?? {}) <= USER_METADATA_MAX_BYTES,
      'metadata',
      `must be at most ${USER_METADATA_MAX_BYTES} bytes as JSON`,
    )
    .throwIfAny();
}
