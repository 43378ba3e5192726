import { Checks, isPlainObject, jsonByteLength } from '../shared/checks.ts';
import { jsonTextProblem } from '../shared/textRules.ts';

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

/**
 * The form an e-mail address is stored, looked up and compared in: NFKC-normalised (so look-alike
 * compatibility forms such as full-width `ａｄａ＠ｅｘａｍｐｌｅ．ｃｏｍ` or the ligature `ﬁ` fold
 * into the plain characters, and composed and decomposed accents agree), then trimmed and
 * lower-cased. Idempotent. See docs/http-api.md, "E-mail addresses".
 */
export function normalizeEmail(email: string): string {
  return email.normalize('NFKC').trim().toLowerCase();
}

/** Throws `validation_failed` when a (normalised) sign-in e-mail holds a control character. */
export function checkSignInEmail(email: string): void {
  new Checks().text(email, 'email', 'name').throwIfAny();
}

/** Validates sign-up input (after normalization); throws a `ValidationError` naming each field. */
export function checkSignUp(input: { email: string; password: string; metadata: unknown }): void {
  const metadataText = jsonTextProblem(input.metadata);
  emailChecks(new Checks(), input.email)
    .length(input.password, 'password', PASSWORD_MIN_LENGTH, PASSWORD_MAX_LENGTH)
    .require(isPlainObject(input.metadata), 'metadata', 'must be a JSON object')
    .require(
      jsonByteLength(input.metadata ?? {}) <= USER_METADATA_MAX_BYTES,
      'metadata',
      `must be at most ${USER_METADATA_MAX_BYTES} bytes as JSON`,
    )
    .require(metadataText === undefined, 'metadata', metadataText ?? '')
    .throwIfAny();
}

/** Throws `validation_failed` unless `email` (normalised) can be an account's (an invitation's). */
export function checkAccountEmail(email: string): void {
  emailChecks(new Checks(), email).throwIfAny();
}

function emailChecks(checks: Checks, email: string): Checks {
  return checks
    .require(
      email.length <= EMAIL_MAX_LENGTH && EMAIL_PATTERN.test(email),
      'email',
      `must be a valid e-mail address of at most ${EMAIL_MAX_LENGTH} characters`,
    )
    .text(email, 'email', 'name');
}
