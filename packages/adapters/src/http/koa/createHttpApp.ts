import Koa from 'koa';
import { MetricsRegistry } from '../../observability/MetricsRegistry.ts';
import type { HttpAppDeps } from './HttpAppDeps.ts';
import { cors } from './middleware/cors.ts';
import { errorHandler } from './middleware/errorHandler.ts';
import { requestContext } from './middleware/requestContext.ts';
import { DEFAULT_REQUEST_TIMEOUT_MS, requestTimeout } from './middleware/requestTimeout.ts';
import { resolveRoute } from './middleware/resolveRoute.ts';
import { securityHeaders } from './middleware/securityHeaders.ts';
import { buildRouteTable } from './routes/routeTable.ts';
import { buildRouter } from './routing/buildRouter.ts';

/** Log paths pino censors, in case a header, credential or token ever reaches a log line. */
const SECRET_KEYS = [
  'password',
  'access_token',
  'refresh_token',
  'accessToken',
  'refreshToken',
  'authorization',
  'cookie',
];

/**
 * Log paths pino censors, in case a header, credential or token ever reaches a log line (up to three
 * levels deep, e.g. `err.headers.authorization`). The HTTP layer itself never logs headers or bodies.
 */
export const REDACTED_LOG_PATHS = SECRET_KEYS.flatMap((key) => [
  key,
  `*.${key}`,
  `*.*.${key}`,
  `*.*.*.${key}`,
]);

/**
 * The Browserdeck HTTP API as a Koa application: request ids, problem+json errors, timeouts, CORS,
 * 404/405 handling and every route of the route table. Mount it with `app.listen()` or
 * `app.callback()`; it holds no resources of its own.
 */
export function createHttpApp(deps: HttpAppDeps): Koa {
  const trustProxy = deps.trustProxy ?? false;
  const app = new Koa({ proxy: trustProxy, maxIpsCount: trustProxy ? 1 : 0 });
  app.silent = true;
  const log = deps.logger.child({ component: 'http' }, { redact: { paths: REDACTED_LOG_PATHS } });
  const metrics = deps.metrics ?? new MetricsRegistry();
  const routes = buildRouteTable({ ...deps, metrics });
  const router = buildRouter(routes, { authenticate: deps.authenticate });

  app.use(requestContext(log, metrics));
  app.use(securityHeaders());
  app.use(errorHandler({ translateError: deps.translateError }));
  app.use(requestTimeout(deps.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS));
  app.use(cors(deps.corsOrigins ?? []));
  const { requestScope } = deps;
  if (requestScope) app.use((_ctx, next) => requestScope(() => next().then(() => undefined)));
  app.use(resolveRoute(router, routes));
  return app;
}
