import { EXTENSION_ARCHIVE_MAX_BYTES } from '@browserdeck/domain';
import { z } from 'zod';
import { projectIdParams, timestamp, uuidParam } from '../shared/commonSchemas.ts';

/** `/v1/projects/{project_id}/extensions/{extension_id}` */
export const extensionParams = projectIdParams.extend({ extension_id: uuidParam });

/** An uploaded extension as the API shows it (never its zip). */
export const ExtensionSchema = z
  .object({
    id: z.string().meta({ description: 'What a session create’s `extensionId` names.' }),
    name: z.string().meta({ description: 'The manifest’s `name`.' }),
    fileName: z.string().meta({ description: 'The uploaded file’s name (its base name).' }),
    size: z.int().min(1).max(EXTENSION_ARCHIVE_MAX_BYTES).meta({ description: 'The zip’s size in bytes.' }),
    createdAt: timestamp,
  })
  .meta({ id: 'Extension' });

/** `GET …/extensions`: the project's extensions, newest first. */
export const ExtensionListSchema = z.array(ExtensionSchema);
