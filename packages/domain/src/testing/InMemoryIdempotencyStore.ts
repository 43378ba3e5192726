import type { SessionAnswer } from '../sessions/BrowserSession.ts';
import type { IdempotencyRecord, IdempotencyStore } from '../sessions/IdempotencyStore.ts';

/** Idempotency keys in a Map, expiring like the database's. */
export class InMemoryIdempotencyStore implements IdempotencyStore {
  private readonly records = new Map<string, IdempotencyRecord & { expiresAt: number }>();

  async reserve(
    scope: string,
    key: string,
    fingerprint: string,
    now: Date,
    expiresAt: Date,
  ): Promise<IdempotencyRecord | null> {
    const id = `${scope}\u0000${key}`;
    const existing = this.records.get(id);
    if (existing && existing.expiresAt > now.getTime()) {
      return { fingerprint: existing.fingerprint, sessionId: existing.sessionId, answer: existing.answer };
    }
    this.records.set(id, { fingerprint, sessionId: null, answer: null, expiresAt: expiresAt.getTime() });
    return null;
  }

  async complete(scope: string, key: string, sessionId: string, answer: SessionAnswer): Promise<void> {
    const record = this.records.get(`${scope}\u0000${key}`);
    if (record) this.records.set(`${scope}\u0000${key}`, { ...record, sessionId, answer: { ...answer } });
  }

  async release(scope: string, key: string): Promise<void> {
    this.records.delete(`${scope}\u0000${key}`);
  }
}
