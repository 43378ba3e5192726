import {
  API_KEY_NAME_MAX_LENGTH,
  API_KEY_NAME_MIN_LENGTH,
  API_KEY_PATTERN,
  API_KEY_PREFIX_LENGTH,
  API_KEY_ROLES,
} from '@browserdeck/domain';
import { z } from 'zod';
import { projectIdParams, textRule, timestamp, uuidParam } from '../shared/commonSchemas.ts';

/** `/v1/projects/{project_id}/api-keys/{key_id}` */
export const apiKeyParams = projectIdParams.extend({ key_id: uuidParam });

const apiKeyRole = z.enum(API_KEY_ROLES, { message: `must be one of ${API_KEY_ROLES.join(', ')}` });

/** `POST /v1/projects/{project_id}/api-keys` body. */
export const CreateApiKeyBody = z.strictObject({
  name: z
    .string('must be a string')
    .trim()
    .min(API_KEY_NAME_MIN_LENGTH, 'must not be empty')
    .max(API_KEY_NAME_MAX_LENGTH, `must be at most ${API_KEY_NAME_MAX_LENGTH} characters`)
    .check(textRule('name'))
    .meta({ description: 'What the key is for, e.g. "CI". Trimmed; no control characters.' }),
  expiresAt: z.iso
    .datetime({ offset: true, message: 'must be an ISO 8601 date and time with a time zone, or null' })
    .nullable()
    .optional()
    .meta({ description: 'When the key stops working; must lie in the future. Absent or null: never.' }),
  role: apiKeyRole
    .optional()
    .meta({ description: 'What the key may do: `developer` (default) or `viewer` (reads only).' }),
});

/** A key as listing answers it: never the secret itself. */
export const ApiKeySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    role: apiKeyRole.meta({ description: 'The role the key acts with in its project (SPEC §17).' }),
    prefix: z.string().meta({
      description: `The key's first ${API_KEY_PREFIX_LENGTH} characters, kept in clear to tell keys apart.`,
    }),
    createdAt: timestamp,
    expiresAt: timestamp.nullable(),
    lastUsedAt: timestamp.nullable().meta({ description: 'Updated at most once a minute.' }),
  })
  .meta({ id: 'ApiKey' });

/** `POST …/api-keys` response: the key with its secret, which is shown this once. */
export const CreatedApiKeySchema = ApiKeySchema.extend({
  key: z.string().regex(API_KEY_PATTERN).meta({
    description: 'The secret (`bdk_` and 43 base64url characters). Shown this once; only its digest is kept.',
  }),
}).meta({ id: 'CreatedApiKey' });

/** `GET …/api-keys` response: the keys that are not revoked, newest first. */
export const ApiKeyListSchema = z.array(ApiKeySchema);
