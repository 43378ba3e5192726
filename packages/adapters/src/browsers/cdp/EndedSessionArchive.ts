import type { ProviderSessionSnapshot, SessionLogEntry } from '@browserdeck/domain';
import type { BoundedLogs } from './logs/SessionLogBuffer.ts';

interface ArchivedSession {
  readonly snapshot: ProviderSessionSnapshot;
  readonly keyDigest: Buffer;
  logs: SessionLogEntry[] | null;
  logBytes: number;
}

/** How much the archive keeps. */
export interface EndedSessionArchiveLimits {
  /** Ended sessions whose final state is kept. */
  readonly maxSessions: number;
  /** Ended sessions whose logs are kept too (logs are much larger). */
  readonly maxWithLogs: number;
  /** The logs of all archived sessions together, as JSON bytes. */
  readonly maxLogBytes: number;
}

/**
 * Final snapshots of ended sessions, so `get` keeps answering their terminal status, bounded to the
 * `maxSessions` most recent. Their logs are kept for the `maxWithLogs` most recent only, and only
 * while all the kept logs add up to at most `maxLogBytes`: past either bound the oldest logs go
 * first, and their sessions answer an empty list.
 */
export class EndedSessionArchive {
  private readonly sessions = new Map<string, ArchivedSession>();
  private readonly withLogs: string[] = [];
  private readonly limits: EndedSessionArchiveLimits;
  private logBytes = 0;

  constructor(limits: EndedSessionArchiveLimits) {
    this.limits = limits;
  }

  /** JSON bytes of the logs kept. */
  get bytes(): number {
    return this.logBytes;
  }

  /** Keeps an ended session's final state, and its logs while they fit. */
  add(snapshot: ProviderSessionSnapshot, keyDigest: Buffer, logs: BoundedLogs): void {
    const id = snapshot.providerSessionId;
    const keep = this.limits.maxWithLogs > 0 && logs.bytes <= this.limits.maxLogBytes;
    this.sessions.set(id, {
      snapshot,
      keyDigest,
      logs: keep ? logs.entries : null,
      logBytes: keep ? logs.bytes : 0,
    });
    if (keep) {
      this.withLogs.push(id);
      this.logBytes += logs.bytes;
    }
    while (
      this.withLogs.length > this.limits.maxWithLogs ||
      (this.logBytes > this.limits.maxLogBytes && this.withLogs.length > 0)
    ) {
      const dropped = this.sessions.get(this.withLogs.shift()!);
      if (!dropped) continue;
      this.logBytes -= dropped.logBytes;
      dropped.logs = null;
      dropped.logBytes = 0;
    }
    while (this.sessions.size > this.limits.maxSessions) {
      const oldest = this.sessions.keys().next().value!;
      this.logBytes -= this.sessions.get(oldest)?.logBytes ?? 0;
      this.sessions.delete(oldest);
    }
  }

  /** The archived session, or undefined. */
  get(providerSessionId: string): Readonly<ArchivedSession> | undefined {
    return this.sessions.get(providerSessionId);
  }
}
