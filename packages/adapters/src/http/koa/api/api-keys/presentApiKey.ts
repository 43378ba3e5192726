import type { ApiKey } from '@browserdeck/domain';
import type { z } from 'zod';
import { isoTimestamp } from '../shared/isoTimestamp.ts';
import type { ApiKeySchema } from './apiKeySchemas.ts';

/** The JSON of an API key without its secret (http-api.md §12). */
export type ApiKeyJson = z.output<typeof ApiKeySchema>;

/** An API key as the API shows it: camelCase, ISO 8601 UTC timestamps with milliseconds, no digest. */
export function presentApiKey(apiKey: ApiKey): ApiKeyJson {
  return {
    id: apiKey.id,
    name: apiKey.name,
    role: apiKey.role,
    prefix: apiKey.prefix,
    createdAt: isoTimestamp(apiKey.createdAt),
    expiresAt: apiKey.expiresAt ? isoTimestamp(apiKey.expiresAt) : null,
    lastUsedAt: apiKey.lastUsedAt ? isoTimestamp(apiKey.lastUsedAt) : null,
  };
}
