import type { MetricsRegistry } from '../../../observability/MetricsRegistry.ts';
import { browserbaseCompatRoutes } from '../browserbase-compat/browserbaseCompatRoutes.ts';
import type { HttpAppDeps } from '../HttpAppDeps.ts';
import { liveViewRoutes } from '../live-view/liveViewRoutes.ts';
import { buildOpenApiDocument } from '../openapi/buildOpenApiDocument.ts';
import type { OpenApiDocument } from '../openapi/OpenApiDocument.ts';
import { renderDocsHtml } from '../openapi/renderDocsHtml.ts';
import type { AnyRoute } from '../routing/RouteDefinition.ts';
import { agentRoutes } from './agentRoutes.ts';
import { apiKeyRoutes } from './apiKeyRoutes.ts';
import { authRoutes } from './authRoutes.ts';
import { operationalRoutes } from './operationalRoutes.ts';
import { projectRoutes } from './projectRoutes.ts';
import { sessionRoutes } from './sessionRoutes.ts';

/**
 * The one route table: every feature module's routes. The router is built from it and so is the
 * OpenAPI document, so a route cannot exist without being documented. A new feature adds its
 * module to this list.
 */
export function buildRouteTable(deps: HttpAppDeps & { metrics: MetricsRegistry }): AnyRoute[] {
  const table: AnyRoute[] = [];
  let document: OpenApiDocument | undefined;
  const getDocument = () => {
    document ??= buildOpenApiDocument(table);
    return document;
  };
  const live = { publicUrl: deps.publicUrl, hub: deps.liveView };
  table.push(
    ...operationalRoutes({
      checkReadiness: deps.database.checkReadiness,
      metrics: deps.metrics,
      metricsEndpoint: deps.settings?.metricsEndpoint,
      document: getDocument,
      docsHtml: (mountPrefix) => renderDocsHtml(getDocument(), mountPrefix),
    }),
    ...authRoutes(deps.useCases.auth),
    ...projectRoutes(deps.useCases.projects),
    ...sessionRoutes(deps.useCases.sessions, deps.providerName, live),
    ...agentRoutes(deps.useCases.agents, deps.providerName),
    ...apiKeyRoutes(deps.useCases.apiKeys),
    ...browserbaseCompatRoutes({ ...deps.useCases, live }),
    ...liveViewRoutes({
      openLiveView: deps.useCases.sessions.openLiveView,
      corsOrigins: deps.settings?.corsOrigins ?? [],
    }),
  );
  return table;
}
