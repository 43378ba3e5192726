import type { IssuedRefreshToken, IssuedRefreshTokenStore } from './IssuedRefreshTokenStore.ts';

/**
 * An `IssuedRefreshTokenStore` in process memory: right for one instance and for tests. Bounded by
 * count (oldest first out), not by expiry.
 */
export class InMemoryIssuedRefreshTokenStore implements IssuedRefreshTokenStore {
  private readonly entries = new Map<string, IssuedRefreshToken & { untilMs: number }>();
  private readonly maxEntries: number;

  constructor(maxEntries = 100_000) {
    this.maxEntries = maxEntries;
  }

  async remember(tokenHash: string, issued: IssuedRefreshToken, until: Date, _now: Date): Promise<void> {
    this.entries.delete(tokenHash);
    this.entries.set(tokenHash, {
      sessionId: issued.sessionId,
      accessTokenTtlSec: issued.accessTokenTtlSec,
      untilMs: until.getTime(),
    });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }

  async find(tokenHash: string, now: Date): Promise<IssuedRefreshToken | null> {
    const entry = this.entries.get(tokenHash);
    if (!entry || entry.untilMs <= now.getTime()) return null;
    return { sessionId: entry.sessionId, accessTokenTtlSec: entry.accessTokenTtlSec };
  }

  /** How many records are kept. */
  get size(): number {
    return this.entries.size;
  }
}
