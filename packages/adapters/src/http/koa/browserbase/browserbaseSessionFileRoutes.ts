import { z } from 'zod';
import {
  DOWNLOADS_ERRORS,
  downloadsAnswer,
  type SessionFileRouteDeps,
  UPLOAD_ERRORS,
  UPLOAD_EXTRA_TIME_MS,
  uploadMaxBytesOf,
} from '../api/sessions/sessionFileRoutes.ts';
import { UploadedFileSchema } from '../api/sessions/sessionFileSchemas.ts';
import { fileBody } from '../kernel/routing/fileBody.ts';
import { type AnyRoute, defineRoute } from '../kernel/routing/RouteDefinition.ts';
import { BROWSERBASE_ROUTE } from './browserbaseRoute.ts';
import { browserbaseIdParams } from './browserbaseSchemas.ts';
import { sessionIdOf } from './browserbaseSessionRoutes.ts';
import { keyProject } from './requireApiKey.ts';

/**
 * Browserbase's upload answer `{ message }`, with Browserdeck's `{ name, size, path }` beside it:
 * `path` is what `setInputFiles` takes (Browserbase's clients assume a path of its own machines).
 */
const BrowserbaseUploadSchema = UploadedFileSchema.extend({ message: z.string() });

/**
 * Browserbase's session files over §5's use cases: `GET /v1/sessions/{id}/downloads` (the SDK's
 * `sessions.downloads.list`, a zip) and `POST /v1/sessions/{id}/uploads` (`sessions.uploads.create`,
 * multipart field `file`, answered 200 as Browserbase does).
 */
export function browserbaseSessionFileRoutes(deps: SessionFileRouteDeps): AnyRoute[] {
  return [
    defineRoute({
      ...BROWSERBASE_ROUTE,
      method: 'GET',
      path: '/v1/sessions/{id}/downloads',
      operationId: 'browserbaseSessionDownloads',
      role: 'viewer',
      summary: 'A session’s downloads as a zip (Browserbase)',
      params: browserbaseIdParams,
      responses: { 200: { description: 'A zip of the downloaded files.', contentType: 'application/zip' } },
      errors: DOWNLOADS_ERRORS,
      handle: async ({ caller, params }) => {
        const { session, archive } = await deps.downloads.execute({
          caller,
          projectId: keyProject(caller),
          sessionId: sessionIdOf(params.id),
        });
        return downloadsAnswer(session.id, archive);
      },
    }),
    defineRoute({
      ...BROWSERBASE_ROUTE,
      method: 'POST',
      path: '/v1/sessions/{id}/uploads',
      operationId: 'browserbaseSessionUpload',
      role: 'developer',
      summary: 'Upload a file to a session (Browserbase)',
      params: browserbaseIdParams,
      body: fileBody({ field: 'file', maxBytes: uploadMaxBytesOf(deps), description: 'The file.' }),
      extraTimeMs: UPLOAD_EXTRA_TIME_MS,
      responses: { 200: { description: 'Where the file was put.', schema: BrowserbaseUploadSchema } },
      errors: UPLOAD_ERRORS,
      handle: async ({ caller, params, body }) => {
        const uploaded = await deps.upload.execute({
          caller,
          projectId: keyProject(caller),
          sessionId: sessionIdOf(params.id),
          file: { name: body.name, content: body.content },
        });
        const { name, size, path } = uploaded;
        return {
          status: 200,
          body: { message: `Uploaded ${name} (${size} bytes) to ${path}.`, name, size, path },
        };
      },
    }),
  ];
}
