import type { ProviderSessionSnapshot, SessionLogEntry } from '@browserdeck/domain';

interface ArchivedSession {
  readonly snapshot: ProviderSessionSnapshot;
  readonly keyDigest: Buffer;
  logs: SessionLogEntry[] | null;
}

/**
 * Final snapshots of ended sessions, so `get` keeps answering their terminal status, bounded to the
 * `maxSessions` most recent. Their logs are kept for the `maxWithLogs` most recent only (logs are
 * much larger); older ones answer an empty list.
 */
export class EndedSessionArchive {
  private readonly sessions = new Map<string, ArchivedSession>();
  private readonly withLogs: string[] = [];
  private readonly maxSessions: number;
  private readonly maxWithLogs: number;

  constructor(options: { maxSessions: number; maxWithLogs: number }) {
    this.maxSessions = options.maxSessions;
    this.maxWithLogs = options.maxWithLogs;
  }

  /** Keeps an ended session's final state. */
  add(snapshot: ProviderSessionSnapshot, keyDigest: Buffer, logs: SessionLogEntry[]): void {
    const id = snapshot.providerSessionId;
    this.sessions.set(id, { snapshot, keyDigest, logs: this.maxWithLogs > 0 ? logs : null });
    if (this.maxWithLogs > 0) this.withLogs.push(id);
    while (this.withLogs.length > this.maxWithLogs) {
      const dropped = this.sessions.get(this.withLogs.shift()!);
      if (dropped) dropped.logs = null;
    }
    while (this.sessions.size > this.maxSessions) {
      this.sessions.delete(this.sessions.keys().next().value!);
    }
  }

  /** The archived session, or undefined. */
  get(providerSessionId: string): Readonly<ArchivedSession> | undefined {
    return this.sessions.get(providerSessionId);
  }
}
