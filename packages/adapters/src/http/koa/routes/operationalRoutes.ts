import { UnavailableError } from '@browserdeck/domain';
import { z } from 'zod';
import type { MetricsRegistry } from '../../../observability/MetricsRegistry.ts';
import type { OpenApiDocument } from '../openapi/OpenApiDocument.ts';
import { DOCS_CONTENT_SECURITY_POLICY } from '../openapi/renderDocsHtml.ts';
import { type AnyRoute, defineRoute } from '../routing/RouteDefinition.ts';
import { type MetricsEndpointOptions, metricsRoute } from './metricsRoute.ts';

/** What the operational endpoints need. */
export interface OperationalRouteDeps {
  /** Resolves when the database answers; throws otherwise. */
  checkReadiness: () => Promise<void>;
  /** Served in Prometheus text format at `/metrics`. */
  metrics: MetricsRegistry;
  /** Who may read `/metrics`, and whether this app serves it at all. */
  metricsEndpoint?: MetricsEndpointOptions | undefined;
  /** The OpenAPI document of the whole route table. */
  document: () => OpenApiDocument;
  /** The HTML reference page rendered from that document. */
  docsHtml: () => string;
}

const TAG = 'Operations';
const Status = z.object({ status: z.literal('ok') });

/**
 * `/healthz`, `/readyz`, `/metrics`, `/openapi.json`, `/docs` (SPEC §8). No access token; `/metrics`
 * may need its own bearer token, or be served by another app (`metricsEndpoint`).
 */
export function operationalRoutes(deps: OperationalRouteDeps): AnyRoute[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/healthz',
      operationId: 'health',
      summary: 'The process is alive',
      tag: TAG,
      auth: false,
      responses: { 200: { description: 'Alive.', schema: Status } },
      handle: async () => ({ status: 200, body: { status: 'ok' } }),
    }),
    defineRoute({
      method: 'GET',
      path: '/readyz',
      operationId: 'readiness',
      summary: 'The database answers',
      tag: TAG,
      auth: false,
      responses: { 200: { description: 'Ready to serve.', schema: Status } },
      errors: ['database_unavailable'],
      handle: async () => {
        try {
          await deps.checkReadiness();
        } catch (cause) {
          throw new UnavailableError('database_unavailable', 'The database is not answering.', { cause });
        }
        return { status: 200, body: { status: 'ok' } };
      },
    }),
    ...(deps.metricsEndpoint?.separate
      ? []
      : [metricsRoute({ ...deps, token: deps.metricsEndpoint?.token })]),
    defineRoute({
      method: 'GET',
      path: '/openapi.json',
      operationId: 'openApiDocument',
      summary: 'This API as an OpenAPI 3.1 document',
      tag: TAG,
      auth: false,
      responses: {
        200: { description: 'The document.', schema: z.looseObject({ openapi: z.literal('3.1.0') }) },
      },
      handle: async () => ({ status: 200, body: deps.document() }),
    }),
    defineRoute({
      method: 'GET',
      path: '/docs',
      operationId: 'apiReference',
      summary: 'A readable API reference page',
      tag: TAG,
      auth: false,
      responses: {
        200: {
          description: 'HTML page.',
          contentType: 'text/html',
          headers: {
            'Content-Security-Policy': { description: 'The page loads nothing but its inline style sheet.' },
          },
        },
      },
      handle: async () => ({
        status: 200,
        body: deps.docsHtml(),
        contentType: 'text/html; charset=utf-8',
        headers: { 'Content-Security-Policy': DOCS_CONTENT_SECURITY_POLICY },
      }),
    }),
  ];
}
