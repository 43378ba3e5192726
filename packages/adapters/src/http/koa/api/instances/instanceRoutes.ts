import { Readable } from 'node:stream';
import { AuthError, NotFoundError } from '@browserdeck/domain';
import { StreamTagError } from '../../../../instances/InstanceAuth.ts';
import {
  INSTANCE_CALLS,
  type InstanceCall,
  type InstanceCallTargets,
} from '../../../../instances/instanceCalls.ts';
import { type AnyRoute, defineRoute } from '../../kernel/routing/RouteDefinition.ts';
import { PROVIDER_CALL_ERRORS } from '../shared/providerScope.ts';

/** The tag of the calls between instances (left out of the OpenAPI document). */
const INTERNAL_TAG = 'Internal';
/** How much longer than the request cut-off an upload from another instance may take (as the client's). */
const UPLOAD_EXTRA_TIME_MS = 10 * 60_000;
/**
 * The calls other instances make to this one (`INSTANCE_CALLS`), as routes of the one table under
 * the `instance` auth kind: their path and query parsed with the registry's schemas, their JSON
 * answers checked against its answer schemas in tests like every route's. Served from `targets`:
 * this instance's own provider and live-view hub, so a call is never carried on again.
 */
export function instanceRoutes(targets: InstanceCallTargets): AnyRoute[] {
  return Object.values(INSTANCE_CALLS).map((call: InstanceCall) => {
    const meta = {
      method: call.method,
      path: call.path,
      operationId: call.operationId,
      summary: call.summary,
      tag: INTERNAL_TAG,
      auth: 'instance' as const,
      undocumented: true,
      params: call.params,
    };
    if (call.kind === 'download') {
      return defineRoute({
        ...meta,
        responses: { 200: { description: 'A zip.', contentType: 'application/zip' } },
        errors: ['not_found', ...PROVIDER_CALL_ERRORS],
        handle: async ({ params }) => {
          const archive = await call.serve(targets, { params });
          if (!archive) throw new NotFoundError('The session’s downloads');
          return {
            status: 200 as const,
            body: Readable.from(archive, { objectMode: false }),
            contentType: 'application/zip',
          };
        },
      });
    }
    const responses = { 200: { description: 'The answer.', schema: call.answer } };
    if (call.kind === 'upload') {
      return defineRoute({
        ...meta,
        query: call.query,
        responses,
        extraTimeMs: UPLOAD_EXTRA_TIME_MS,
        errors: ['payload_too_large', ...PROVIDER_CALL_ERRORS],
        handle: async ({ params, query, caller }) => {
          try {
            return {
              status: 200 as const,
              body: await call.serve(targets, { params, query, content: caller.body }),
            };
          } catch (error) {
            // The provider kept nothing of a body its closing tag does not prove.
            if (error instanceof StreamTagError) throw new AuthError('unauthorized', error.message);
            throw error;
          }
        },
      });
    }
    return defineRoute({
      ...meta,
      query: call.query,
      responses,
      errors: [...PROVIDER_CALL_ERRORS],
      handle: async ({ params, query }) => ({
        status: 200 as const,
        body: await call.serve(targets, { params, query }),
      }),
    });
  });
}
