import { UnavailableError } from '@browserdeck/domain';
import { z } from 'zod';
import type { MetricsRegistry } from '../../../../observability/MetricsRegistry.ts';
import type { OpenApiDocument } from '../../kernel/openapi/OpenApiDocument.ts';
import { DOCS_CONTENT_SECURITY_POLICY } from '../../kernel/openapi/renderDocsHtml.ts';
import { withMountPrefix } from '../../kernel/openapi/withMountPrefix.ts';
import { type AnyRoute, defineRoute } from '../../kernel/routing/RouteDefinition.ts';
import { StatusSchema } from '../shared/commonSchemas.ts';
import { type MetricsEndpointOptions, metricsRoute } from './metricsRoute.ts';

/** What the operational endpoints need. */
export interface OperationalRouteDeps {
  /** Resolves when the database answers; throws otherwise. */
  checkReadiness: () => Promise<void>;
  /** Served in Prometheus text format at `/metrics`. */
  metrics: MetricsRegistry;
  /** Who may read `/metrics`, and whether this app serves it at all. */
  metricsEndpoint?: MetricsEndpointOptions | undefined;
  /** The OpenAPI document of the whole route table, as served at the root. */
  document: () => OpenApiDocument;
  /** The HTML reference page rendered from that document, for an app mounted under `mountPrefix`. */
  docsHtml: (mountPrefix: string) => string;
}

/** These routes' OpenAPI tag and what it groups. */
export const OPERATIONS_TAG = {
  name: 'Operations',
  description: 'Probes, metrics and this reference; no access token.',
};
const TAG = OPERATIONS_TAG.name;

/** What `/healthz` and `/readyz` answer when all is well. */
const OK: z.input<typeof StatusSchema> = { status: 'ok' };

/**
 * `/healthz`, `/readyz`, `/metrics`, `/openapi.json`, `/docs` (http-api.md §8). No access token; `/metrics`
 * may need its own bearer token, or be served by another app (`metricsEndpoint`).
 */
export function operationalRoutes(deps: OperationalRouteDeps): AnyRoute[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/healthz',
      operationId: 'health',
      summary: 'The process is alive',
      description:
        'Answers as long as the process serves requests, and checks nothing else: a liveness probe.',
      tag: TAG,
      auth: 'none',
      responses: { 200: { description: 'Alive.', schema: StatusSchema } },
      handle: async () => ({ status: 200, body: OK }),
    }),
    defineRoute({
      method: 'GET',
      path: '/readyz',
      operationId: 'readiness',
      summary: 'The database answers',
      description: 'Answers 200 when the database answers a query, else 503: a readiness probe.',
      tag: TAG,
      auth: 'none',
      responses: { 200: { description: 'Ready to serve.', schema: StatusSchema } },
      errors: ['database_unavailable'],
      handle: async () => {
        try {
          await deps.checkReadiness();
        } catch (cause) {
          throw new UnavailableError('database_unavailable', 'The database is not answering.', { cause });
        }
        return { status: 200, body: OK };
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
      description:
        'Generated from the schemas that validate the requests. Its server is the path this API is mounted under.',
      tag: TAG,
      auth: 'none',
      responses: {
        200: { description: 'The document.', schema: z.looseObject({ openapi: z.literal('3.1.0') }) },
      },
      handle: async ({ mountPrefix }) => ({
        status: 200,
        body: withMountPrefix(deps.document(), mountPrefix),
      }),
    }),
    defineRoute({
      method: 'GET',
      path: '/docs',
      operationId: 'apiReference',
      summary: 'A readable API reference page',
      description: 'The OpenAPI document as one self-contained HTML page, with every error code.',
      tag: TAG,
      auth: 'none',
      responses: {
        200: {
          description: 'HTML page.',
          contentType: 'text/html',
          headers: {
            'Content-Security-Policy': { description: 'The page loads nothing but its inline style sheet.' },
          },
        },
      },
      handle: async ({ mountPrefix }) => ({
        status: 200,
        body: deps.docsHtml(mountPrefix),
        contentType: 'text/html; charset=utf-8',
        headers: { 'Content-Security-Policy': DOCS_CONTENT_SECURITY_POLICY },
      }),
    }),
  ];
}
