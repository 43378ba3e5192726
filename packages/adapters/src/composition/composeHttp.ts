import compose from 'koa-compose';
import type { UpgradeCapability, WebDriverCapability } from '../browsers/ProviderCapabilities.ts';
import { createHttpApp, createMetricsApp } from '../http/koa/createHttpApp.ts';
import type { HttpAppDeps } from '../http/koa/HttpAppDeps.ts';
import { httpServerOptions } from '../http/koa/httpServerOptions.ts';
import { isPassthroughRoute } from '../http/koa/kernel/routing/RouteDefinition.ts';
import { serveUpgrades } from '../http/koa/kernel/routing/serveUpgrades.ts';
import { buildRouteTable } from '../http/koa/routeTable.ts';
import type { MetricsRegistry } from '../observability/MetricsRegistry.ts';
import type { BrowserdeckHttp } from './Browserdeck.ts';
import type { BrowserdeckOverrides } from './BrowserdeckOverrides.ts';
import type { OpenedInstances } from './openInstances.ts';

/** What the HTTP side is built from, besides the app's deps. */
export interface ComposeHttpOptions {
  /** The provider's own WebSocket endpoints (e.g. the local provider's CDP connect path). */
  upgrades: UpgradeCapability | undefined;
  /** The provider's WebDriver endpoints (sessions' `seleniumRemoteUrl`), served raw. */
  webdriver?: WebDriverCapability | undefined;
  /** This instance among several: the other instances' calls, and session upgrades offered to their holders. */
  instances?: Pick<OpenedInstances, 'calls' | 'forwardUpgrade' | 'forwardPassthrough'> | undefined;
  /** The path prefix of the public URL, which upgrade requests arrive under. */
  mountPrefix: string;
  /** Database hooks and settings replaced over `deps`; the use cases are already replaced. */
  overrides: Pick<BrowserdeckOverrides, 'database' | 'http' | 'liveViewRecheck'>;
}

/**
 * The HTTP side, built once from one route table: the app, the same as a middleware, the upgrade
 * handler (the table's upgrade routes: the live view's and the provider's endpoints, else a problem
 * answer), the table itself, the metrics app and server options.
 */
export function composeHttp(
  base: HttpAppDeps & { metrics: MetricsRegistry },
  { upgrades, webdriver, instances, mountPrefix, overrides }: ComposeHttpOptions,
): BrowserdeckHttp {
  const deps = {
    ...base,
    database: { ...base.database, ...definedOnly(overrides.database) },
    settings: { ...base.settings, ...definedOnly(overrides.http) },
    liveViewRecheck: overrides.liveViewRecheck ?? base.liveViewRecheck,
    upgrades: upgrades?.endpoints,
    webdriver: webdriver?.endpoints,
    instanceCalls: instances?.calls,
    forwardPassthrough: instances?.forwardPassthrough,
  };
  // One table for the router, the document, the upgrade handler and `routes`: built twice, each
  // would hold its own live-view grant watch.
  const routes = buildRouteTable(deps);
  const app = createHttpApp(deps, routes);
  return {
    app,
    middleware: compose(app.middleware),
    handleUpgrade: serveUpgrades(routes, mountPrefix, instances?.forwardUpgrade),
    createMetricsApp: () => createMetricsApp(deps),
    createWorkerApp: () =>
      createHttpApp(
        { ...deps, settings: { ...deps.settings, console: false } },
        routes.filter(
          (route) =>
            WORKER_OPERATIONS.has(route.operationId) ||
            isPassthroughRoute(route) ||
            route.auth === 'instance',
        ),
      ),
    serverOptions: httpServerOptions(deps.settings.requestTimeoutMs),
    routes,
  };
}

/**
 * What a worker-only process serves over HTTP: its probes and metrics, its sessions' WebDriver
 * endpoints (passthrough routes), which other instances forward to it like their WebSockets, and the
 * other instances' calls about the sessions it holds (`instance` routes).
 */
const WORKER_OPERATIONS = new Set(['health', 'readiness', 'metrics']);

/** The entries that are set: an `undefined` replacement leaves the original in place. */
function definedOnly<T extends object>(values: T | undefined): Partial<T> {
  return Object.fromEntries(
    Object.entries(values ?? {}).filter(([, value]) => value !== undefined),
  ) as Partial<T>;
}
