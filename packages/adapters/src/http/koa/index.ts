export type { AgentRouteDeps } from './api/agents/agentRoutes.ts';
export type { AuthRouteDeps } from './api/auth/authRoutes.ts';
export { TokenResponse } from './api/auth/authSchemas.ts';
export type { ConsoleSettings } from './api/console/ConsoleSettings.ts';
export {
  BROWSERBASE_LIVE_VIEW_ORIGIN,
  consoleContentSecurityPolicy,
} from './api/console/consoleContentSecurityPolicy.ts';
export type { RecheckTimer } from './api/live-view/LiveViewGrantWatch.ts';
export type { MetricsEndpointOptions } from './api/operational/metricsRoute.ts';
export type { OperationalRouteDeps } from './api/operational/operationalRoutes.ts';
export type { ProjectRouteDeps } from './api/projects/projectRoutes.ts';
export type { SessionRouteDeps } from './api/sessions/sessionRoutes.ts';
export { PROVIDER_ALIAS } from './api/shared/providerScope.ts';
export { createHttpApp, createMetricsApp, type MetricsAppDeps, REDACTED_LOG_PATHS } from './createHttpApp.ts';
export type { HttpAppDeps, HttpDatabaseHooks, HttpSettings, HttpUseCases } from './HttpAppDeps.ts';
export { type HttpServerTimeouts, httpServerOptions } from './httpServerOptions.ts';
export type { ErrorDialect, ErrorWriter } from './kernel/errors/ErrorWriter.ts';
export { ERROR_STATUS, type ErrorStatus, problemType } from './kernel/errors/errorStatus.ts';
export { type AnsweredError, HttpError } from './kernel/errors/HttpError.ts';
export {
  HTTP_ERROR_CODES,
  type HttpErrorCode,
  PROBLEM_CODES,
  type ProblemCode,
} from './kernel/errors/problemCodes.ts';
export { refuseUpgrade } from './kernel/errors/refuseUpgrade.ts';
export { type ProblemBody, problemBody } from './kernel/errors/writeProblem.ts';
export { CUT_OFF_FLUSH_MS, DEFAULT_REQUEST_TIMEOUT_MS } from './kernel/middleware/requestTimeout.ts';
export { buildOpenApiDocument } from './kernel/openapi/buildOpenApiDocument.ts';
export type { OpenApiDocument, OpenApiOperation } from './kernel/openapi/OpenApiDocument.ts';
export { renderDocsHtml } from './kernel/openapi/renderDocsHtml.ts';
export type { ForwardedOrigin, PublicUrls } from './kernel/proxy/PublicUrls.ts';
export {
  compileTrustProxy,
  parseTrustProxy,
  type TrustProxy,
  type TrustsHop,
} from './kernel/proxy/TrustProxy.ts';
export { MAX_BODY_BYTES } from './kernel/routing/parseJsonBody.ts';
export {
  type AnyRoute,
  type AnyRouteResult,
  defineRoute,
  defineUpgradeRoute,
  HTTP_METHODS,
  type HttpMethod,
  type HttpRoute,
  isPassthroughRoute,
  isUpgradeRoute,
  type PassthroughRoute,
  type ResponseSpec,
  ROUTE_AUTHS,
  type RouteAuth,
  type RouteDefinition,
  type RouteRequest,
  type RouteResult,
  type UpgradeRoute,
} from './kernel/routing/RouteDefinition.ts';
export { servePassthroughs } from './kernel/routing/servePassthroughs.ts';
export { serveUpgrades, type UpgradeHandler } from './kernel/routing/serveUpgrades.ts';
export { buildRouteTable } from './routeTable.ts';
