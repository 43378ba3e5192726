import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { matchUpgradeEndpoint } from '../../../shared/matchUpgradeEndpoint.ts';
import type { UpgradeEndpoint } from '../../../shared/UpgradeEndpoint.ts';
import type { CdpBrowserMessage } from '../../cdp/cdpMessages.ts';
import { openInProcessCdpClient } from '../../cdp/openInProcessCdpClient.ts';
import { type ConnectRefusal, serveConnectUpgrade } from '../../cdp/serveConnectUpgrade.ts';
import type { CdpCapabilityConnection } from '../../ProviderCapabilities.ts';
import type { SessionRegistry } from '../session/SessionRegistry.ts';
import { CONNECT_PATH_TEMPLATE } from './connectPath.ts';

/**
 * How clients reach local sessions' browsers: the signed connect endpoint (served from the HTTP
 * adapter's route table as an upgrade route, or by `handleUpgrade` on a server without it), and
 * in-process CDP clients (the live view's).
 */
export class LocalConnect {
  readonly endpoint: UpgradeEndpoint;
  private readonly registry: SessionRegistry;
  private readonly mountPrefix: string;

  constructor(deps: { registry: SessionRegistry; publicUrl: string; maxConnectionsPerSession: number }) {
    this.registry = deps.registry;
    this.mountPrefix = new URL(deps.publicUrl).pathname.replace(/\/+$/, '');
    this.endpoint = {
      path: CONNECT_PATH_TEMPLATE,
      operationId: 'connectLocalSession',
      summary: 'Connect a CDP client to a local session’s browser (WebSocket)',
      serve: (request) =>
        serveConnectUpgrade(request, (id) => this.registry.connectLookup(id), deps.maxConnectionsPerSession),
    };
  }

  /**
   * Serves a session's `connectUrl` on a server without the HTTP adapter: true when proxied, a
   * `ConnectRefusal` for the host to answer, false when the request is not a connect at all.
   */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean | ConnectRefusal {
    const { mountPrefix } = this;
    const match = matchUpgradeEndpoint([this.endpoint], req.url, mountPrefix);
    if (!match) return false;
    return match.endpoint.serve({ req, socket, head, params: match.params, query: match.query, mountPrefix });
  }

  /** An in-process CDP client on a running session's browser (`openInProcessCdpClient`); null when none runs here. */
  openCdp(
    providerSessionId: string,
    deliver: (message: CdpBrowserMessage) => void,
    onClose: () => void,
  ): Promise<CdpCapabilityConnection | null> {
    const session = this.registry.running(providerSessionId);
    return session ? openInProcessCdpClient(session, deliver, onClose) : Promise.resolve(null);
  }
}
