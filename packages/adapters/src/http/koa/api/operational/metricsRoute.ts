import { createHash, timingSafeEqual } from 'node:crypto';
import { AuthError } from '@browserdeck/domain';
import { z } from 'zod';
import type { MetricsRegistry } from '../../../../observability/MetricsRegistry.ts';
import { type AnyRoute, defineRoute } from '../../kernel/routing/RouteDefinition.ts';

/** Who may read `/metrics` and which app serves it (http-api.md §9: `METRICS_TOKEN`, `METRICS_LISTEN`). */
export interface MetricsEndpointOptions {
  /**
   * When set, `/metrics` requires `Authorization: Bearer <token>`, compared in constant time;
   * anything else is 401 `unauthorized`.
   */
  token?: string | undefined;
  /**
   * `true`: the API app does not serve `/metrics` (404 there, and it is left out of the OpenAPI
   * document); `createMetricsApp` serves it, on an address of its own. Default `false`.
   */
  separate?: boolean | undefined;
}

/** `Bearer <credentials>`; the scheme is case-insensitive. */
const BEARER = /^Bearer +(\S+) *$/i;

/** Whether `presented` is `token`, in time that depends on neither (both are hashed to 32 bytes first). */
function sameToken(presented: string, token: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(presented), digest(token));
}

/** `GET /metrics`: Prometheus text, behind a bearer token when one is configured. */
export function metricsRoute(deps: { metrics: MetricsRegistry; token?: string | undefined }): AnyRoute {
  const { token } = deps;
  return defineRoute({
    method: 'GET',
    path: '/metrics',
    operationId: 'metrics',
    summary: 'Prometheus metrics: requests by route and status, latencies, provider calls, active sessions',
    description: token
      ? 'This server protects it: send `Authorization: Bearer <METRICS_TOKEN>`.'
      : 'Open on this server: anyone who can reach this address may read it.',
    tag: 'Operations',
    auth: 'none',
    ...(token
      ? {
          headers: z.object({
            Authorization: z
              .string()
              .optional()
              .meta({ description: '`Bearer <METRICS_TOKEN>` (not an access token).' }),
          }),
        }
      : {}),
    responses: {
      200: { description: 'Prometheus text exposition format 0.0.4.', contentType: 'text/plain' },
    },
    errors: token ? ['unauthorized'] : [],
    handle: async (request) => {
      if (token) {
        // With a token the route declares the header, so `headers` is there.
        const presented = BEARER.exec(request.headers.Authorization ?? '')?.[1];
        if (presented === undefined || !sameToken(presented, token)) {
          throw new AuthError(
            'unauthorized',
            '/metrics needs an Authorization: Bearer <metrics token> header.',
          );
        }
      }
      return {
        status: 200,
        body: await deps.metrics.render(),
        contentType: 'text/plain; version=0.0.4; charset=utf-8',
      };
    },
  });
}
