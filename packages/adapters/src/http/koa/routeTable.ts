import type { MetricsRegistry } from '../../observability/MetricsRegistry.ts';
import { ADMIN_TAG, adminRoutes } from './api/admin/adminRoutes.ts';
import { AGENTS_TAG, agentRoutes } from './api/agents/agentRoutes.ts';
import { API_KEYS_TAG, apiKeyRoutes } from './api/api-keys/apiKeyRoutes.ts';
import { AUDIT_TAG, auditRoutes } from './api/audit/auditRoutes.ts';
import { AUTH_TAG, authRoutes } from './api/auth/authRoutes.ts';
import { EXTENSIONS_TAG, extensionRoutes } from './api/extensions/extensionRoutes.ts';
import { instanceRoutes } from './api/instances/instanceRoutes.ts';
import { liveViewRoutes } from './api/live-view/liveViewRoutes.ts';
import { liveViewUpgradeRoute } from './api/live-view/liveViewUpgradeRoute.ts';
import { MEMBERS_TAG, memberRoutes } from './api/members/memberRoutes.ts';
import { OPERATIONS_TAG, operationalRoutes } from './api/operational/operationalRoutes.ts';
import { PROJECTS_TAG, projectRoutes } from './api/projects/projectRoutes.ts';
import { RUNS_TAG, runRoutes } from './api/runs/runRoutes.ts';
import { replayRoutes } from './api/sessions/replayRoutes.ts';
import { sessionFileRoutes } from './api/sessions/sessionFileRoutes.ts';
import { SESSIONS_TAG, sessionRoutes } from './api/sessions/sessionRoutes.ts';
import { WEBDRIVER_TAG, webdriverRoutes } from './api/webdriver/webdriverRoutes.ts';
import { browserbaseCompatRoutes } from './browserbase/browserbaseCompatRoutes.ts';
import type { HttpAppDeps } from './HttpAppDeps.ts';
import { buildOpenApiDocument } from './kernel/openapi/buildOpenApiDocument.ts';
import type { OpenApiDocument } from './kernel/openapi/OpenApiDocument.ts';
import { renderDocsHtml } from './kernel/openapi/renderDocsHtml.ts';
import { type AnyRoute, defineUpgradeRoute } from './kernel/routing/RouteDefinition.ts';

/**
 * The one route table: every feature module's routes, and the WebSocket endpoints as upgrade routes
 * (the live view's; other adapters' from `deps.upgrades`, e.g. the local provider's connect path),
 * and the provider's WebDriver endpoints (`deps.webdriver`) as passthrough routes.
 * The router, the upgrade handler (`serveUpgrades`) and the OpenAPI document are built from it, so a
 * route cannot exist without being documented. A new feature adds its module to this list.
 */
export function buildRouteTable(deps: HttpAppDeps & { metrics: MetricsRegistry }): AnyRoute[] {
  const table: AnyRoute[] = [];
  let document: OpenApiDocument | undefined;
  const getDocument = () => {
    document ??= buildOpenApiDocument(table, {
      tags: [
        OPERATIONS_TAG,
        AUTH_TAG,
        PROJECTS_TAG,
        MEMBERS_TAG,
        AUDIT_TAG,
        SESSIONS_TAG,
        AGENTS_TAG,
        EXTENSIONS_TAG,
        RUNS_TAG,
        API_KEYS_TAG,
        ADMIN_TAG,
        WEBDRIVER_TAG,
      ],
    });
    return document;
  };
  const live = { hub: deps.liveView };
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
    ...memberRoutes({ ...deps.useCases.members, transfer: deps.useCases.projects.transfer }),
    ...auditRoutes(deps.useCases.projects),
    ...sessionRoutes(deps.useCases.sessions, deps.providerName, live),
    ...sessionFileRoutes(deps.useCases.sessions, deps.providerName),
    ...replayRoutes(deps.useCases.sessions, deps.providerName),
    ...agentRoutes(deps.useCases.agents, deps.providerName),
    ...extensionRoutes(deps.useCases.extensions),
    ...runRoutes(deps.useCases.runs, deps.providerName, {
      heartbeatMs: deps.settings?.eventStreamHeartbeatMs,
    }),
    ...apiKeyRoutes(deps.useCases.apiKeys),
    ...adminRoutes(deps.useCases.operators),
    ...browserbaseCompatRoutes({ ...deps.useCases, live }),
    ...liveViewRoutes({
      openLiveView: deps.useCases.sessions.openLiveView,
      corsOrigins: deps.settings?.corsOrigins ?? [],
    }),
    liveViewUpgradeRoute(deps),
    ...(deps.upgrades ?? []).map(({ path, operationId, summary, serve }) =>
      defineUpgradeRoute({ path, operationId, summary, tag: 'Sessions', upgrade: serve }),
    ),
    ...webdriverRoutes(deps.webdriver ?? []),
    ...(deps.instanceCalls ? instanceRoutes(deps.instanceCalls.targets) : []),
  );
  return table;
}
