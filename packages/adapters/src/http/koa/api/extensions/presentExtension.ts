import type { Extension } from '@browserdeck/domain';
import type { z } from 'zod';
import { isoTimestamp } from '../shared/isoTimestamp.ts';
import type { ExtensionSchema } from './extensionSchemas.ts';

/** The JSON of an uploaded extension (http-api.md §5). */
export type ExtensionJson = z.output<typeof ExtensionSchema>;

/** An extension as the API shows it: camelCase, an ISO 8601 UTC timestamp with milliseconds, no zip. */
export function presentExtension(extension: Extension): ExtensionJson {
  return {
    id: extension.id,
    name: extension.name,
    fileName: extension.fileName,
    size: extension.size,
    createdAt: isoTimestamp(extension.createdAt),
  };
}
