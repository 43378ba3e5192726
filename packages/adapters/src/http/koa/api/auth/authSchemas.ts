import {
  EMAIL_MAX_LENGTH,
  EMAIL_PATTERN,
  INVITATION_TOKEN_PATTERN,
  jsonByteLength,
  normalizeEmail,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  USER_METADATA_MAX_BYTES,
} from '@browserdeck/domain';
import { z } from 'zod';
import { jsonTextRule, textRule, timestamp } from '../shared/commonSchemas.ts';

/** Normalised as the domain stores it (NFKC, trimmed, lower-cased), then checked. */
const email = z
  .string()
  .overwrite(normalizeEmail)
  .max(EMAIL_MAX_LENGTH, `must be at most ${EMAIL_MAX_LENGTH} characters`)
  .regex(EMAIL_PATTERN, 'must be a valid e-mail address')
  .check(textRule('name'))
  .meta({ description: 'NFKC-normalised, trimmed and lower-cased before use; no control characters.' });

const metadata = z
  .record(z.string(), z.unknown())
  .refine((value) => jsonByteLength(value) <= USER_METADATA_MAX_BYTES, {
    message: `must be at most ${USER_METADATA_MAX_BYTES} bytes as JSON`,
  })
  .check(jsonTextRule)
  .meta({
    description: `Free-form attributes of the user, at most ${USER_METADATA_MAX_BYTES} bytes as JSON.`,
  });

/** `POST /v1/auth/signup` body. */
export const SignUpBody = z.strictObject({
  email,
  password: z
    .string()
    .min(PASSWORD_MIN_LENGTH, `must be at least ${PASSWORD_MIN_LENGTH} characters`)
    .max(PASSWORD_MAX_LENGTH, `must be at most ${PASSWORD_MAX_LENGTH} characters`),
  metadata: metadata.optional(),
  invitation: z
    .string()
    .regex(INVITATION_TOKEN_PATTERN, 'must be an invitation token (bdi_…)')
    .optional()
    .meta({
      description:
        'An invitation token (`bdi_…`, a project’s or an operator’s): what `SIGNUP=invite` needs, and `SIGNUP=closed` an operator’s (SPEC §17).',
    }),
});

/** `POST /v1/auth/signin` body. Only shape is checked: a wrong e-mail is `invalid_credentials`. */
export const SignInBody = z.strictObject({
  email: z
    .string()
    .overwrite(normalizeEmail)
    .min(1, 'must not be empty')
    .max(EMAIL_MAX_LENGTH)
    .check(textRule('name')),
  password: z.string().min(1, 'must not be empty').max(PASSWORD_MAX_LENGTH),
});

/** `POST /v1/auth/refresh` body. */
export const RefreshBody = z.strictObject({
  refresh_token: z.string().min(1, 'must not be empty').max(4096),
});

/** The public face of a user. */
export const UserSchema = z.object({ id: z.string(), email: z.string() }).meta({ id: 'User' });

/** `{ user }` — sign-up and /me. */
export const UserEnvelope = z.object({ user: UserSchema }).meta({ id: 'UserEnvelope' });

/** A token pair: sign-in and refresh. */
export const TokenResponse = z
  .object({
    access_token: z.string(),
    refresh_token: z.string(),
    token_type: z.literal('bearer'),
    expires_in: z.int().meta({ description: 'Access-token lifetime in seconds.' }),
    expires_at: timestamp.meta({ description: 'When the access token expires.' }),
    user: UserSchema,
  })
  .meta({ id: 'TokenGrant' });

/** `POST /v1/auth/signout` response. */
export const SignOutResponse = z.object({ message: z.string() }).meta({ id: 'SignOutMessage' });

/** `POST /v1/auth/sync` response. */
export const SyncResponse = z
  .object({
    user: UserSchema,
    project: z.object({ id: z.string(), name: z.string(), slug: z.string() }),
  })
  .meta({ id: 'SyncResult' });
