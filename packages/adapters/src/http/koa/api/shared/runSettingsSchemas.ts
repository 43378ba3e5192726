import {
  ENV_KEY_PATTERN,
  ENV_MAX_KEYS,
  ENV_VALUE_MAX_BYTES,
  PROVIDER_PROJECT_ID_MAX_LENGTH,
  PROVIDER_REF_MAX_LENGTH,
  SCRIPT_MAX_BYTES,
  TIMEOUT_MAX_SEC,
  TIMEOUT_MIN_SEC,
  utf8Length,
} from '@browserdeck/domain';
import { z } from 'zod';
import { textRule } from './commonSchemas.ts';

/** An opaque string (anything but NUL) of at most `max` bytes as UTF-8. */
function maxBytes(max: number, what = 'a string') {
  return z
    .string(`must be ${what}`)
    .refine((value) => utf8Length(value) <= max, { message: `must be at most ${max} bytes as UTF-8` })
    .check(textRule('opaque'));
}

/** Program text to run, at most 256 KiB (bytes). Shared by sessions and agents. */
export const scriptField = maxBytes(SCRIPT_MAX_BYTES).meta({
  description: `Program text to run, at most ${SCRIPT_MAX_BYTES} bytes as UTF-8; no NUL.`,
});

/** Environment variables: string → string, at most 100 keys of the env-key pattern, values ≤ 8 KiB. */
export const envField = z
  .record(z.string().regex(ENV_KEY_PATTERN), maxBytes(ENV_VALUE_MAX_BYTES), {
    error: (issue) => {
      if (issue.code === 'invalid_key') return `key must match ${ENV_KEY_PATTERN.source}`;
      if (issue.code === 'invalid_type') return 'must be an object of string values';
      return undefined;
    },
  })
  .check((ctx) => {
    if (Object.keys(ctx.value).length > ENV_MAX_KEYS) {
      ctx.issues.push({
        code: 'custom',
        input: ctx.value,
        message: `must have at most ${ENV_MAX_KEYS} keys`,
      });
    }
  })
  .meta({
    description:
      `Environment variables (secrets: encrypted at rest, never logged): at most ${ENV_MAX_KEYS} keys ` +
      `matching ${ENV_KEY_PATTERN.source}, values at most ${ENV_VALUE_MAX_BYTES} bytes.`,
  });

/** A provider region code; the use case checks it against the configured provider's list. */
export const regionField = z.string('must be a string').meta({
  description:
    'Provider region. Browserbase: us-west-2 (default), us-east-1, eu-central-1, ap-southeast-1; local: local.',
});

/** Session lifetime in seconds, an integer from 60 to 21 600. */
export const timeoutSecField = z
  .int(`must be an integer from ${TIMEOUT_MIN_SEC} to ${TIMEOUT_MAX_SEC}`)
  .min(TIMEOUT_MIN_SEC, `must be an integer from ${TIMEOUT_MIN_SEC} to ${TIMEOUT_MAX_SEC}`)
  .max(TIMEOUT_MAX_SEC, `must be an integer from ${TIMEOUT_MIN_SEC} to ${TIMEOUT_MAX_SEC}`)
  .meta({ description: 'Seconds before the provider ends the session; default 300.' });

/** An extension or context id at the provider, or null. */
export const providerRefField = z
  .string('must be a string or null')
  .max(PROVIDER_REF_MAX_LENGTH, `must be at most ${PROVIDER_REF_MAX_LENGTH} characters`)
  .check(textRule('name'))
  .nullable();

/** A provider project id, 1 to 128 characters. */
export const providerProjectIdField = z
  .string('must be a string')
  .min(1, 'must not be empty')
  .max(PROVIDER_PROJECT_ID_MAX_LENGTH, `must be at most ${PROVIDER_PROJECT_ID_MAX_LENGTH} characters`)
  .check(textRule('name'));
