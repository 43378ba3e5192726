import { EXTENSION_ARCHIVE_MAX_BYTES, type Extension } from '@browserdeck/domain';
import { z } from 'zod';
import {
  EXTENSION_FILE_DESCRIPTION,
  EXTENSION_UPLOAD_EXTRA_TIME_MS,
  type ExtensionRouteDeps,
} from '../api/extensions/extensionRoutes.ts';
import { timestamp } from '../api/shared/commonSchemas.ts';
import { isoTimestamp } from '../api/shared/isoTimestamp.ts';
import { PROVIDER_CALL_ERRORS } from '../api/shared/providerScope.ts';
import { fileBody } from '../kernel/routing/fileBody.ts';
import { type AnyRoute, defineRoute } from '../kernel/routing/RouteDefinition.ts';
import { BROWSERBASE_ROUTE } from './browserbaseRoute.ts';
import { browserbaseIdParams } from './browserbaseSchemas.ts';
import { keyProject } from './requireApiKey.ts';

/** An extension (Browserbase's SDK `Extension`): upload and read answer it. */
const BrowserbaseExtensionSchema = z.object({
  id: z.string().min(1),
  createdAt: timestamp,
  updatedAt: timestamp,
  fileName: z.string(),
  projectId: z.string(),
});

function present(extension: Extension): z.input<typeof BrowserbaseExtensionSchema> {
  const at = isoTimestamp(extension.createdAt);
  // An extension never changes once uploaded: it was last updated when it was made.
  return {
    id: extension.id,
    createdAt: at,
    updatedAt: at,
    fileName: extension.fileName,
    projectId: extension.projectId,
  };
}

/**
 * Browserbase's extensions over §5's use cases, for the key's project: `POST /v1/extensions`
 * (the SDK's `extensions.create`, multipart field `file`; what Stagehand 4 uploads its runtime
 * with), `GET /v1/extensions/{id}` and `DELETE /v1/extensions/{id}` (204). A session loads one with
 * `extensionId`, top level or in `browserSettings`.
 */
export function browserbaseExtensionRoutes(deps: ExtensionRouteDeps): AnyRoute[] {
  return [
    defineRoute({
      ...BROWSERBASE_ROUTE,
      method: 'POST',
      path: '/v1/extensions',
      operationId: 'browserbaseUploadExtension',
      role: 'developer',
      summary: 'Upload an extension (Browserbase)',
      body: fileBody({
        field: 'file',
        maxBytes: EXTENSION_ARCHIVE_MAX_BYTES,
        description: EXTENSION_FILE_DESCRIPTION,
      }),
      extraTimeMs: EXTENSION_UPLOAD_EXTRA_TIME_MS,
      responses: { 201: { description: 'The stored extension.', schema: BrowserbaseExtensionSchema } },
      errors: [
        'not_found',
        'project_archived',
        'extension_limit_reached',
        'extension_invalid',
        ...PROVIDER_CALL_ERRORS,
      ],
      handle: async ({ caller, body }) => {
        const extension = await deps.upload.execute({
          caller,
          projectId: keyProject(caller),
          fileName: body.name,
          archive: await body.bytes(),
        });
        return { status: 201, body: present(extension) };
      },
    }),
    defineRoute({
      ...BROWSERBASE_ROUTE,
      method: 'GET',
      path: '/v1/extensions/{id}',
      operationId: 'browserbaseGetExtension',
      role: 'viewer',
      summary: 'Read an extension (Browserbase)',
      params: browserbaseIdParams,
      responses: { 200: { description: 'The extension.', schema: BrowserbaseExtensionSchema } },
      errors: ['not_found'],
      handle: async ({ caller, params }) => {
        const extension = await deps.get.execute({
          caller,
          projectId: keyProject(caller),
          extensionId: params.id,
        });
        return { status: 200, body: present(extension) };
      },
    }),
    defineRoute({
      ...BROWSERBASE_ROUTE,
      method: 'DELETE',
      path: '/v1/extensions/{id}',
      operationId: 'browserbaseDeleteExtension',
      role: 'developer',
      summary: 'Delete an extension (Browserbase)',
      params: browserbaseIdParams,
      responses: { 204: { description: 'Deleted.' } },
      errors: ['not_found', ...PROVIDER_CALL_ERRORS],
      handle: async ({ caller, params }) => {
        await deps.delete.execute({ caller, projectId: keyProject(caller), extensionId: params.id });
        return { status: 204 };
      },
    }),
  ];
}
