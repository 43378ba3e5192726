import { type BrowserContextInfo, UnsupportedOptionError } from '@browserdeck/domain';
import type { z } from 'zod';
import { isoTimestamp } from '../api/shared/isoTimestamp.ts';
import { PROVIDER_CALL_ERRORS } from '../api/shared/providerScope.ts';
import type { UseCasesOf } from '../api/shared/UseCasesOf.ts';
import { type AnyRoute, defineRoute } from '../kernel/routing/RouteDefinition.ts';
import { BrowserbaseContextSchema, BrowserbaseCreatedContextSchema } from './browserbaseResponseSchemas.ts';
import { BROWSERBASE_ROUTE } from './browserbaseRoute.ts';
import { BrowserbaseCreateContextBody, browserbaseIdParams } from './browserbaseSchemas.ts';
import { keyProject } from './requireApiKey.ts';

/** The use cases behind Browserbase's `/v1/contexts`. */
export type BrowserbaseContextRouteDeps = UseCasesOf<'contexts', 'create' | 'get' | 'delete'>;

function present(context: BrowserContextInfo): z.input<typeof BrowserbaseContextSchema> {
  return {
    id: context.id,
    projectId: context.projectId,
    createdAt: isoTimestamp(context.createdAt),
    updatedAt: isoTimestamp(context.updatedAt),
  };
}

/** Browserbase answers a new context with fields for uploading an encrypted profile; there is none here. */
const NO_UPLOAD = { uploadUrl: null, publicKey: null, cipherAlgorithm: null, initializationVectorSize: null };

/**
 * Browserbase's contexts: the project's context profiles, which a session opens with
 * `browserSettings.context: { id, persist }`. Uploading a profile archive (`PUT`) is refused.
 */
export function browserbaseContextRoutes(deps: BrowserbaseContextRouteDeps): AnyRoute[] {
  return [
    defineRoute({
      ...BROWSERBASE_ROUTE,
      method: 'POST',
      path: '/v1/contexts',
      operationId: 'browserbaseCreateContext',
      role: 'developer',
      summary: 'Create a context (Browserbase)',
      body: BrowserbaseCreateContextBody,
      responses: { 201: { description: 'The new, empty context.', schema: BrowserbaseCreatedContextSchema } },
      errors: [
        'not_found',
        'project_archived',
        'unsupported_option',
        'context_limit_reached',
        ...PROVIDER_CALL_ERRORS,
      ],
      handle: async ({ caller, body }) => {
        const context = await deps.create.execute({ caller, projectId: keyProject(caller, body.projectId) });
        return { status: 201, body: { ...present(context), ...NO_UPLOAD } };
      },
    }),
    defineRoute({
      ...BROWSERBASE_ROUTE,
      method: 'GET',
      path: '/v1/contexts/{id}',
      operationId: 'browserbaseGetContext',
      role: 'viewer',
      summary: 'Read a context (Browserbase)',
      params: browserbaseIdParams,
      responses: { 200: { description: 'The context.', schema: BrowserbaseContextSchema } },
      errors: ['not_found', 'unsupported_option', ...PROVIDER_CALL_ERRORS],
      handle: async ({ caller, params }) => {
        const context = await deps.get.execute({
          caller,
          projectId: keyProject(caller),
          contextId: params.id,
        });
        return { status: 200, body: present(context) };
      },
    }),
    defineRoute({
      ...BROWSERBASE_ROUTE,
      method: 'PUT',
      path: '/v1/contexts/{id}',
      operationId: 'browserbaseUpdateContext',
      role: 'developer',
      summary: 'Upload a context profile (Browserbase): refused',
      params: browserbaseIdParams,
      responses: { 400: { description: 'Always: profiles cannot be uploaded.' } },
      errors: ['not_found', 'unsupported_option', ...PROVIDER_CALL_ERRORS],
      handle: async ({ caller, params }) => {
        await deps.get.execute({ caller, projectId: keyProject(caller), contextId: params.id });
        throw new UnsupportedOptionError(
          'uploadUrl',
          'Uploading a profile archive is not supported: a context here is a browser profile kept on the ' +
            'server. Open it in a session with browserSettings.context: { id, persist: true } to fill it.',
        );
      },
    }),
    defineRoute({
      ...BROWSERBASE_ROUTE,
      method: 'DELETE',
      path: '/v1/contexts/{id}',
      operationId: 'browserbaseDeleteContext',
      role: 'developer',
      summary: 'Delete a context (Browserbase)',
      params: browserbaseIdParams,
      responses: { 204: { description: 'Deleted.' } },
      errors: ['not_found', 'context_in_use', 'unsupported_option', ...PROVIDER_CALL_ERRORS],
      handle: async ({ caller, params }) => {
        await deps.delete.execute({ caller, projectId: keyProject(caller), contextId: params.id });
        return { status: 204 };
      },
    }),
  ];
}
