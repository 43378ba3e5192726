import {
  EXTENSION_ARCHIVE_MAX_BYTES,
  EXTENSION_MAX_ENTRIES,
  EXTENSION_UNPACKED_MAX_BYTES,
  EXTENSIONS_PER_PROJECT_MAX,
} from '@browserdeck/domain';
import { fileBody } from '../../kernel/routing/fileBody.ts';
import { type AnyRoute, defineRoute } from '../../kernel/routing/RouteDefinition.ts';
import { projectIdParams } from '../shared/commonSchemas.ts';
import { PROVIDER_CALL_ERRORS } from '../shared/providerScope.ts';
import type { UseCasesOf } from '../shared/UseCasesOf.ts';
import { ExtensionListSchema, ExtensionSchema, extensionParams } from './extensionSchemas.ts';
import { presentExtension } from './presentExtension.ts';

/** The use cases behind `/v1/projects/{project_id}/extensions`. */
export type ExtensionRouteDeps = UseCasesOf<'extensions', 'upload' | 'list' | 'get' | 'delete'>;

/** These routes' OpenAPI tag and what it groups. */
export const EXTENSIONS_TAG = {
  name: 'Extensions',
  description:
    'Chrome extensions uploaded to a project (a zip with `manifest.json` at its root), which a session ' +
    'loads with `extensionId`.',
};
const TAG = EXTENSIONS_TAG.name;
const BASE = '/v1/projects/{project_id}/extensions';

/** How much longer than the request cut-off an upload may take to arrive (10 MiB over a slow link). */
export const EXTENSION_UPLOAD_EXTRA_TIME_MS = 2 * 60_000;

/** What the upload's file field says in the OpenAPI document. */
export const EXTENSION_FILE_DESCRIPTION =
  'The extension as a zip, `manifest.json` at its root (Manifest V2 or V3, with `name` and `version`); ' +
  `at most ${EXTENSION_MAX_ENTRIES} entries and ${EXTENSION_UNPACKED_MAX_BYTES} bytes unpacked.`;

/**
 * `/v1/projects/{project_id}/extensions`: a project's uploaded extensions (http-api.md §5).
 * Extensions belong to the project, whatever the provider (SPEC §5): no `{provider}` segment.
 */
export function extensionRoutes(deps: ExtensionRouteDeps): AnyRoute[] {
  const scope = { tag: TAG, auth: 'userOrKey' as const };
  return [
    defineRoute({
      ...scope,
      method: 'POST',
      path: BASE,
      operationId: 'uploadExtension',
      role: 'developer',
      summary: 'Upload an extension',
      description:
        'A `multipart/form-data` body with the zip in the field `file`. It is checked before it is ' +
        'stored: a manifest Chromium loads, no path leaving the extension’s folder, no symlink, the ' +
        'limits (400 `extension_invalid` otherwise; 413 past the zip’s size limit). A project holds ' +
        `at most ${EXTENSIONS_PER_PROJECT_MAX} extensions: one more is 409 \`extension_limit_reached\`. ` +
        'A session created with its `id` as `extensionId` loads it unpacked (and starts a fresh ' +
        'browser, never a warm one).',
      params: projectIdParams,
      body: fileBody({
        field: 'file',
        maxBytes: EXTENSION_ARCHIVE_MAX_BYTES,
        description: EXTENSION_FILE_DESCRIPTION,
      }),
      extraTimeMs: EXTENSION_UPLOAD_EXTRA_TIME_MS,
      responses: { 201: { description: 'The stored extension.', schema: ExtensionSchema } },
      errors: [
        'not_found',
        'project_archived',
        'extension_limit_reached',
        'extension_invalid',
        ...PROVIDER_CALL_ERRORS,
      ],
      handle: async ({ caller, params, body }) => {
        const extension = await deps.upload.execute({
          caller,
          projectId: params.project_id,
          fileName: body.name,
          archive: await body.bytes(),
        });
        return { status: 201, body: presentExtension(extension) };
      },
    }),
    defineRoute({
      ...scope,
      method: 'GET',
      path: BASE,
      operationId: 'listExtensions',
      role: 'viewer',
      summary: 'List extensions, newest first',
      description: 'The project’s uploaded extensions, without their zips; also in an archived project.',
      params: projectIdParams,
      responses: { 200: { description: 'The extensions.', schema: ExtensionListSchema } },
      errors: ['not_found'],
      handle: async ({ caller, params }) => {
        const extensions = await deps.list.execute({ caller, projectId: params.project_id });
        return { status: 200, body: extensions.map(presentExtension) };
      },
    }),
    defineRoute({
      ...scope,
      method: 'GET',
      path: `${BASE}/{extension_id}`,
      operationId: 'getExtension',
      role: 'viewer',
      summary: 'Read an extension',
      description: 'One of the project’s extensions, without its zip; another project’s is a 404.',
      params: extensionParams,
      responses: { 200: { description: 'The extension.', schema: ExtensionSchema } },
      errors: ['not_found'],
      handle: async ({ caller, params }) => {
        const extension = await deps.get.execute({
          caller,
          projectId: params.project_id,
          extensionId: params.extension_id,
        });
        return { status: 200, body: presentExtension(extension) };
      },
    }),
    defineRoute({
      ...scope,
      method: 'DELETE',
      path: `${BASE}/{extension_id}`,
      operationId: 'deleteExtension',
      role: 'developer',
      summary: 'Delete an extension',
      description:
        'Also in an archived project. Sessions already running keep what they loaded; later creates ' +
        'naming it are a 404 `extension_not_found`.',
      params: extensionParams,
      responses: { 204: { description: 'Deleted; no body.' } },
      errors: ['not_found', ...PROVIDER_CALL_ERRORS],
      handle: async ({ caller, params }) => {
        await deps.delete.execute({ caller, projectId: params.project_id, extensionId: params.extension_id });
        return { status: 204 };
      },
    }),
  ];
}
