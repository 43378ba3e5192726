import { AuthError } from '@browserdeck/domain';
import Koa from 'koa';
import { MetricsRegistry } from '../../observability/MetricsRegistry.ts';
import { consoleMiddleware } from './api/console/consoleMiddleware.ts';
import { metricsRoute } from './api/operational/metricsRoute.ts';
import { BROWSERBASE_DIALECT } from './browserbase/browserbaseRoute.ts';
import type { HttpAppDeps, HttpDatabaseHooks, HttpUseCases } from './HttpAppDeps.ts';
import { cors } from './kernel/middleware/cors.ts';
import { errorHandler } from './kernel/middleware/errorHandler.ts';
import { requestContext } from './kernel/middleware/requestContext.ts';
import { DEFAULT_REQUEST_TIMEOUT_MS, requestTimeout } from './kernel/middleware/requestTimeout.ts';
import { resolveRoute } from './kernel/middleware/resolveRoute.ts';
import { securityHeaders } from './kernel/middleware/securityHeaders.ts';
import { forwardedRequest } from './kernel/proxy/forwardedRequest.ts';
import { DEFAULT_PUBLIC_URL } from './kernel/proxy/PublicUrls.ts';
import { buildRouter } from './kernel/routing/buildRouter.ts';
import type { AnyRoute } from './kernel/routing/RouteDefinition.ts';
import { servePassthroughs } from './kernel/routing/servePassthroughs.ts';
import { buildRouteTable } from './routeTable.ts';

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
 * `app.callback()` (on a `node:http` server made with `httpServerOptions`); it holds no resources
 * of its own. With `metricsEndpoint.separate`, `/metrics` is not among its routes: serve
 * `createMetricsApp(deps)` on another address.
 *
 * It serves `routes` when given: the table `buildRouteTable` built from the same `deps` (with their
 * `metrics`), which the host also hands its upgrade handler (`serveUpgrades`), so one table, and one
 * set of what its routes hold (e.g. the live view's grant watch), serves both. Otherwise it builds it.
 */
export function createHttpApp(deps: HttpAppDeps, routes?: readonly AnyRoute[]): Koa {
  const metrics = deps.metrics ?? new MetricsRegistry();
  routes ??= buildRouteTable({ ...deps, metrics });
  const webConsole = consoleMiddleware(deps);
  return composeApp({ ...deps, metrics }, routes, (app) => {
    if (webConsole) app.use(webConsole);
    app.use(cors(deps.settings?.corsOrigins ?? []));
    const { requestScope } = deps.database;
    if (requestScope) app.use((_ctx, next) => requestScope(() => next().then(() => undefined)));
  });
}

/** What `createMetricsApp` needs: the API app's deps will do, with the registry both share. */
export interface MetricsAppDeps extends Pick<HttpAppDeps, 'logger' | 'settings' | 'forwardPassthrough'> {
  metrics: MetricsRegistry;
  database?: Pick<HttpDatabaseHooks, 'translateError'> | undefined;
  useCases?: { auth: Pick<HttpUseCases['auth'], 'authenticate'> } | undefined;
}

/**
 * An app that serves only `GET /metrics` (with `metricsEndpoint.token`, behind that bearer token),
 * with the API app's request ids, problem answers, security headers and timeout; anything else is
 * 404. For `METRICS_LISTEN`: give it the deps of `createHttpApp` (with `metricsEndpoint.separate`,
 * so the API app does not serve it too) and listen on the metrics address.
 */
export function createMetricsApp(deps: MetricsAppDeps): Koa {
  const routes = [metricsRoute({ metrics: deps.metrics, token: deps.settings?.metricsEndpoint?.token })];
  return composeApp(deps, routes);
}

/** The middleware every app of the adapter has, around `routes`; `inner` adds more before routing. */
function composeApp(
  deps: MetricsAppDeps & Pick<HttpAppDeps, 'instanceCalls' | 'publicUrl'>,
  routes: readonly AnyRoute[],
  inner: (app: Koa) => void = () => {},
): Koa {
  // Koa's `proxy` stays off: `forwardedRequest` decides the client's address and origin, per hop.
  const app = new Koa();
  app.silent = true;
  const log = deps.logger.child({ component: 'http' }, { redact: { paths: REDACTED_LOG_PATHS } });
  const router = buildRouter(routes, {
    authenticate: deps.useCases?.auth.authenticate ?? NO_ACCESS_TOKENS,
    validateResponses: deps.settings?.validateResponses,
    authenticateInstance: deps.instanceCalls?.authenticate,
  });
  app.use(
    forwardedRequest({
      trust: deps.settings?.trustProxy,
      publicUrl: deps.publicUrl ?? DEFAULT_PUBLIC_URL,
      publicUrlFromProxy: deps.settings?.publicUrlFromProxy,
    }),
  );
  app.use(requestContext(log, deps.metrics));
  app.use(securityHeaders());
  app.use(
    errorHandler({
      translateError: deps.database?.translateError,
      validateErrors: deps.settings?.validateResponses,
    }),
  );
  // Raw endpoints (a session's WebDriver server) answer long commands: before the request cut-off.
  app.use(servePassthroughs(routes, deps.forwardPassthrough));
  app.use(requestTimeout(deps.settings?.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS));
  inner(app);
  app.use(resolveRoute(router, routes, [BROWSERBASE_DIALECT]));
  return app;
}

/** For an app without routes that take access tokens (the metrics app): refuses any. */
const NO_ACCESS_TOKENS: HttpUseCases['auth']['authenticate'] = {
  execute: () => Promise.reject(new AuthError('unauthorized', 'This address takes no access tokens.')),
};
