import { UPLOAD_NAME_MAX_LENGTH } from '@browserdeck/domain';
import { z } from 'zod';

/** `POST …/sessions/{session_id}/uploads` → 201: where the file was put (http-api.md §5). */
export const UploadedFileSchema = z
  .object({
    name: z.string().max(UPLOAD_NAME_MAX_LENGTH).meta({
      description:
        'The name it was stored under: the base name sent, with ` (2)`, ` (3)`… before the extension when the session already had one of that name.',
    }),
    size: z.number().int().min(0).meta({ description: 'Its size in bytes.' }),
    path: z.string().meta({
      description:
        'Where the session’s browser sees it: give this to Playwright’s `setInputFiles(path)` (or CDP `DOM.setFileInputFiles`).',
    }),
  })
  .meta({ id: 'UploadedFile' });

/** The JSON answer of an upload. */
export type UploadedFileJson = z.infer<typeof UploadedFileSchema>;
