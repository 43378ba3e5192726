import type { UpgradeHandler } from '../http/koa/kernel/routing/serveUpgrades.ts';
import type { OwnUpgrade } from '../runs/runner/CdpBridge.ts';

/**
 * The service's own WebSocket endpoints as a run's CDP connection reaches them: in this process,
 * through the HTTP side's upgrade handler (bound once it is built), for a target under the public
 * URL's origin, the one `connectUrl`s are made of. The run's connection is then served as any
 * client's (the connect proxy, or the instance that holds the session), with no hop through the
 * network: a server needs no route to its own `PUBLIC_URL` for runs.
 */
export class OwnUpgrades {
  private handler: UpgradeHandler | undefined;
  /** `ws://host:port` or `wss://host:port`: the public URL's origin as WebSocket URLs name it. */
  private readonly origin: string;

  constructor(publicUrl: string) {
    const url = new URL(publicUrl);
    this.origin = `${url.protocol === 'https:' ? 'wss:' : 'ws:'}//${url.host}`;
  }

  /** From now on, own targets are served by `handler`. */
  bind(handler: UpgradeHandler): void {
    this.handler = handler;
  }

  readonly serve: OwnUpgrade = (target, req, socket, head) => {
    const handler = this.handler;
    if (!handler || `${target.protocol}//${target.host}` !== this.origin) return false;
    req.url = `${target.pathname}${target.search}`;
    req.headers.host = target.host;
    handler(req, socket, head);
    return true;
  };
}
