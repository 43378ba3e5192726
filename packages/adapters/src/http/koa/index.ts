export type { ConsoleSettings } from './console/ConsoleSettings.ts';
export {
  BROWSERBASE_LIVE_VIEW_ORIGIN,
  consoleContentSecurityPolicy,
} from './console/consoleContentSecurityPolicy.ts';
export { createHttpApp, createMetricsApp, type MetricsAppDeps, REDACTED_LOG_PATHS } from './createHttpApp.ts';
export { ERROR_STATUS, type ErrorStatus } from './errors/errorStatus.ts';
export { refuseUpgrade } from './errors/refuseUpgrade.ts';
export { type ProblemBody, problemBody } from './errors/writeProblem.ts';
export type { HttpAppDeps, HttpDatabaseHooks, HttpSettings, HttpUseCases } from './HttpAppDeps.ts';
export { type HttpServerTimeouts, httpServerOptions } from './httpServerOptions.ts';
export { CUT_OFF_FLUSH_MS, DEFAULT_REQUEST_TIMEOUT_MS } from './middleware/requestTimeout.ts';
export { buildOpenApiDocument } from './openapi/buildOpenApiDocument.ts';
export type { OpenApiDocument, OpenApiOperation } from './openapi/OpenApiDocument.ts';
export { renderDocsHtml } from './openapi/renderDocsHtml.ts';
export type { AgentRouteDeps } from './routes/agentRoutes.ts';
export type { AuthRouteDeps } from './routes/authRoutes.ts';
export type { MetricsEndpointOptions } from './routes/metricsRoute.ts';
export type { OperationalRouteDeps } from './routes/operationalRoutes.ts';
export type { ProjectRouteDeps } from './routes/projectRoutes.ts';
export { PROVIDER_ALIAS } from './routes/providerScope.ts';
export { buildRouteTable } from './routes/routeTable.ts';
export type { SessionRouteDeps } from './routes/sessionRoutes.ts';
export { MAX_BODY_BYTES } from './routing/parseJsonBody.ts';
export {
  type AnyRoute,
  defineRoute,
  HTTP_METHODS,
  type HttpMethod,
  type ResponseSpec,
  type RouteDefinition,
  type RouteRequest,
  type RouteResult,
} from './routing/RouteDefinition.ts';
