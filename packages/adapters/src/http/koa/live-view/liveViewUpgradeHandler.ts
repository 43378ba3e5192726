import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { HttpAppDeps } from '../HttpAppDeps.ts';
import { serveLiveViewUpgrade } from './serveLiveViewUpgrade.ts';

/**
 * The live-view WebSocket part of an app's upgrade handler, from the same deps as the app: true
 * when it took the request (`serveLiveViewUpgrade`), false for the next handler to try.
 */
export function liveViewUpgradeHandler(
  deps: HttpAppDeps,
  mountPrefix: string,
): (req: IncomingMessage, socket: Duplex, head: Buffer) => boolean {
  const upgradeDeps = {
    openLiveView: deps.useCases.sessions.openLiveView,
    hub: deps.liveView,
    database: deps.database,
    logger: deps.logger,
    mountPrefix,
  };
  return (req, socket, head) => serveLiveViewUpgrade(req, socket, head, upgradeDeps);
}
