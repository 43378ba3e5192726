import type { HttpAppDeps } from '../../HttpAppDeps.ts';
import { defineUpgradeRoute, type UpgradeRoute } from '../../kernel/routing/RouteDefinition.ts';
import { LiveViewGrantWatch } from './LiveViewGrantWatch.ts';
import { LIVE_VIEW_SOCKET_PATH } from './liveViewPaths.ts';
import { serveLiveViewUpgrade } from './serveLiveViewUpgrade.ts';

/**
 * The live-view WebSocket as an upgrade route of the table (`serveLiveViewUpgrade`), from the same
 * deps as the app. Its viewers' grants are re-checked as `deps.liveViewRecheck` says (every 5 s by
 * default); the watch's timer runs only while a viewer is open.
 */
export function liveViewUpgradeRoute(deps: HttpAppDeps): UpgradeRoute {
  const watch = new LiveViewGrantWatch({
    check: deps.useCases.sessions.checkLiveViewGrant,
    scope: deps.database.requestScope,
    logger: deps.logger,
    intervalMs: deps.liveViewRecheck?.intervalMs,
    timer: deps.liveViewRecheck?.timer,
  });
  const upgradeDeps = {
    openLiveView: deps.useCases.sessions.openLiveView,
    hub: deps.liveView,
    watch,
    database: deps.database,
    logger: deps.logger,
  };
  return defineUpgradeRoute({
    path: LIVE_VIEW_SOCKET_PATH,
    operationId: 'liveViewSocket',
    summary: 'The live view’s WebSocket (token in the query)',
    tag: 'Live view',
    upgrade: (request) => serveLiveViewUpgrade(request, upgradeDeps),
  });
}
