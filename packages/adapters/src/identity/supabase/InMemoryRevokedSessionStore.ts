import type { RevokedSessionStore } from './RevokedSessionStore.ts';

/**
 * A `RevokedSessionStore` in process memory: right for one instance and for tests. Several instances
 * need a shared store (a database table), or a sign-out on one is not seen by the others.
 */
export class InMemoryRevokedSessionStore implements RevokedSessionStore {
  private readonly until = new Map<string, number>();
  private writes = 0;

  async revoke(sessionId: string, until: Date, now: Date): Promise<void> {
    const previous = this.until.get(sessionId) ?? Number.NEGATIVE_INFINITY;
    this.until.set(sessionId, Math.max(previous, until.getTime()));
    // Forget records that can no longer matter, now and then, so memory stays bounded.
    if (++this.writes % 256 === 0) this.prune(now.getTime());
  }

  async isRevoked(sessionId: string, now: Date): Promise<boolean> {
    const until = this.until.get(sessionId);
    return until !== undefined && until > now.getTime();
  }

  /** How many records are kept (expired ones included until the next prune). */
  get size(): number {
    return this.until.size;
  }

  /** Drops the records that expired before `nowMs`. */
  prune(nowMs: number): void {
    for (const [sessionId, until] of this.until) if (until <= nowMs) this.until.delete(sessionId);
  }
}
