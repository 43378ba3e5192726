import type { IdempotencyRecord, IdempotencyStore, SessionAnswer } from '@browserdeck/domain';

/** Idempotency keys in a Map, expiring like the database's. */
export class InMemoryIdempotencyStore implements IdempotencyStore {
  private readonly records = new Map<string, IdempotencyRecord & { expiresAt: number }>();

  async reserve(
    scope: string,
    key: string,
    fingerprint: string,
    sessionId: string,
    now: Date,
    expiresAt: Date,
  ): Promise<IdempotencyRecord | null> {
    const existing = this.records.get(id(scope, key));
    if (existing && existing.expiresAt > now.getTime()) {
      const { expiresAt: _, ...record } = existing;
      return { ...record, claimedAt: new Date(record.claimedAt) };
    }
    this.claim(scope, key, { fingerprint, sessionId, answer: null, claimedAt: now }, expiresAt);
    return null;
  }

  async takeOver(
    scope: string,
    key: string,
    claimedAt: Date,
    sessionId: string,
    now: Date,
    expiresAt: Date,
  ): Promise<boolean> {
    const existing = this.records.get(id(scope, key));
    if (!existing || existing.answer !== null || existing.claimedAt.getTime() !== claimedAt.getTime()) {
      return false;
    }
    this.claim(scope, key, { ...existing, sessionId, claimedAt: now }, expiresAt);
    return true;
  }

  async complete(scope: string, key: string, sessionId: string, answer: SessionAnswer): Promise<void> {
    const record = this.records.get(id(scope, key));
    if (record && (record.sessionId === sessionId || record.sessionId === null)) {
      this.records.set(id(scope, key), { ...record, sessionId, answer: { ...answer } });
    }
  }

  async release(scope: string, key: string, sessionId: string): Promise<void> {
    const record = this.records.get(id(scope, key));
    if (record && (record.sessionId === sessionId || record.sessionId === null))
      this.records.delete(id(scope, key));
  }

  private claim(scope: string, key: string, record: IdempotencyRecord, expiresAt: Date): void {
    this.records.set(id(scope, key), {
      ...record,
      claimedAt: new Date(record.claimedAt),
      expiresAt: expiresAt.getTime(),
    });
  }
}

function id(scope: string, key: string): string {
  return `${scope}\u0000${key}`;
}
