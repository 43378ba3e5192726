import type { ConnectionStats, Server } from 'proxy-chain';

/**
 * Counts the bytes an egress proxy exchanged with the network (targets and upstream proxies: sent
 * plus received), connection by connection, and hands them out as deltas. Live connections count
 * as they go (proxy-chain's per-connection stats), closed ones with their final stats
 * (`connectionClosed`), so a long WebSocket is metered while it lasts. Bytes between the browser
 * and the proxy are not counted, nor tunnels the proxy serves itself (the session's own connect
 * endpoint), which proxy-chain does not meter.
 */
export class EgressMeter {
  /** Bytes of each live connection already handed out. */
  private readonly taken = new Map<number, number>();
  /** Bytes of connections closed since the last `take`. */
  private closed = 0;
  private readonly server: Server;

  constructor(server: Server) {
    this.server = server;
    server.on(
      'connectionClosed',
      ({ connectionId, stats }: { connectionId: number; stats?: ConnectionStats }) => {
        this.closed += Math.max(0, bytesOf(stats) - (this.taken.get(connectionId) ?? 0));
        this.taken.delete(connectionId);
      },
    );
  }

  /** Bytes since the last call (all of them, the first time). */
  take(): number {
    let bytes = this.closed;
    this.closed = 0;
    for (const id of this.server.getConnectionIds()) {
      const now = bytesOf(this.server.getConnectionStats(id));
      const before = this.taken.get(id) ?? 0;
      // A pooled target socket moving between connections can make a connection's count dip: never negative.
      if (now > before) {
        bytes += now - before;
        this.taken.set(id, now);
      }
    }
    return bytes;
  }
}

function bytesOf(stats: ConnectionStats | undefined): number {
  return (stats?.trgTxBytes ?? 0) + (stats?.trgRxBytes ?? 0);
}
