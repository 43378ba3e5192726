import type { ProxyBytesDelta, ProxyMeteringCapability } from '@browserdeck/domain';
import type { LocalBrowserSession } from './LocalBrowserSession.ts';

/** Ended sessions whose final proxy bytes are kept for `take` when nobody takes them. */
const MAX_UNTAKEN_ENDED_SESSIONS = 10_000;

/**
 * The local provider's proxy metering: bytes (in and out, at each browser's egress proxy: what went
 * to and came from the network or the session's upstream proxies) per session since the last
 * `take`, for the sessions that had any. Open connections count as they go; a session that ended
 * since the last call is reported once more with its final bytes (`keepFinal`), then forgotten.
 * Bytes a warm browser used before its session are not the session's. Tunnels to the session's own
 * connect endpoint are not counted.
 */
export class SessionProxyBytes implements ProxyMeteringCapability {
  /** Final counts of ended sessions not yet taken; bounded, in case nobody takes them. */
  private readonly ended = new Map<string, number>();
  private readonly running: () => Iterable<LocalBrowserSession>;

  constructor(running: () => Iterable<LocalBrowserSession>) {
    this.running = running;
  }

  take(): ProxyBytesDelta[] {
    const bytes = new Map(this.ended);
    this.ended.clear();
    for (const session of this.running()) {
      const taken = session.browser.takeProxyBytes();
      if (taken > 0) bytes.set(session.id, (bytes.get(session.id) ?? 0) + taken);
    }
    return [...bytes].map(([providerSessionId, count]) => ({ providerSessionId, bytes: count }));
  }

  /** An ended session's last bytes (its proxy has closed), kept until `take` reports them. */
  keepFinal(session: LocalBrowserSession): void {
    const bytes = session.browser.takeProxyBytes();
    if (bytes === 0) return;
    if (this.ended.size >= MAX_UNTAKEN_ENDED_SESSIONS) {
      const oldest = this.ended.keys().next().value;
      if (oldest !== undefined) this.ended.delete(oldest);
    }
    this.ended.set(session.id, (this.ended.get(session.id) ?? 0) + bytes);
  }
}
