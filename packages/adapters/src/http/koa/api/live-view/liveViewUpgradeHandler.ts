import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { HttpAppDeps } from '../../HttpAppDeps.ts';
import { LiveViewGrantWatch } from './LiveViewGrantWatch.ts';
import { serveLiveViewUpgrade } from './serveLiveViewUpgrade.ts';

/**
 * The live-view WebSocket part of an app's upgrade handler, from the same deps as the app: true
 * when it took the request (`serveLiveViewUpgrade`), false for the next handler to try. Its viewers'
 * grants are re-checked as `deps.liveViewRecheck` says (every 5 s by default).
 */
export function liveViewUpgradeHandler(
  deps: HttpAppDeps,
  mountPrefix: string,
): (req: IncomingMessage, socket: Duplex, head: Buffer) => boolean {
  const { requestScope } = deps.database;
  const watch = new LiveViewGrantWatch({
    check: deps.useCases.sessions.checkLiveViewGrant,
    scope: requestScope,
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
    mountPrefix,
  };
  return (req, socket, head) => serveLiveViewUpgrade(req, socket, head, upgradeDeps);
}
