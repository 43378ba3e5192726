import type { InstanceRecord, InstanceRegistry, SessionKey } from './InstanceRegistry.ts';

/** Holders remembered per session id (a session's holder never changes). */
const MAX_REMEMBERED_HOLDERS = 10_000;
/** How long an instance's record is reused before it is read again. */
const RECORD_TTL_MS = 1_000;

/**
 * This instance's view of the others: who holds a session's browser (remembered: it never changes
 * once a session exists) and where an instance is, with whether it has gone silent (no heartbeat for
 * `lostAfterMs`: `liveHolder`). Reads go to the registry; holders are cached, records for a second.
 */
export class InstanceDirectory {
  readonly instanceId: string;
  readonly lostAfterMs: number;
  private readonly registry: InstanceRegistry;
  private readonly holders = new Map<string, string | null>();
  private readonly records = new Map<string, { record: InstanceRecord | null; readAt: number }>();

  constructor(deps: { registry: InstanceRegistry; instanceId: string; lostAfterMs: number }) {
    this.registry = deps.registry;
    this.instanceId = deps.instanceId;
    this.lostAfterMs = deps.lostAfterMs;
  }

  /**
   * The other instance holding the session's browser, when there is one: undefined when this
   * instance holds it, every instance reaches it, or no session has that id.
   */
  async otherHolder(key: SessionKey): Promise<string | undefined> {
    const cacheKey = 'sessionId' in key ? `s:${key.sessionId.toLowerCase()}` : `p:${key.providerSessionId}`;
    let holder = this.holders.get(cacheKey);
    if (holder === undefined) {
      const found = await this.registry.holderOf(key);
      if (found === undefined) return undefined;
      holder = found;
      if (this.holders.size >= MAX_REMEMBERED_HOLDERS) this.holders.clear();
      this.holders.set(cacheKey, holder);
    }
    return holder === null || holder === this.instanceId ? undefined : holder;
  }

  /**
   * The other instance holding the session's browser, when there is one (undefined as for
   * `otherHolder`), with its record while it is alive: null when it has none or has gone silent
   * (no heartbeat for `lostAfterMs`), so that nothing is carried to it.
   */
  async liveHolder(
    key: SessionKey,
    now = Date.now(),
  ): Promise<{ id: string; record: InstanceRecord | null } | undefined> {
    const id = await this.otherHolder(key);
    if (id === undefined) return undefined;
    return { id, record: await this.liveInstance(id, now) };
  }

  /** The record of instance `id` while it is registered and alive (a heartbeat within `lostAfterMs`). */
  async liveInstance(id: string, now = Date.now(), fresh = false): Promise<InstanceRecord | null> {
    const record = await this.find(id, now, fresh);
    return record && now - record.seenAt.getTime() <= this.lostAfterMs ? record : null;
  }

  /**
   * Whether the instance that signed a call is registered and alive. An instance that just joined
   * may be remembered as absent: the record is read again before the call is refused.
   */
  async isLive(id: string, now = Date.now()): Promise<boolean> {
    return (await this.liveInstance(id, now)) !== null || (await this.liveInstance(id, now, true)) !== null;
  }

  /** The instance's record (read at most once a second), or null when none is registered. */
  private async find(id: string, now: number, fresh = false): Promise<InstanceRecord | null> {
    const cached = this.records.get(id);
    if (cached && !fresh && now - cached.readAt < RECORD_TTL_MS) return cached.record;
    const record = await this.registry.find(id);
    this.records.set(id, { record, readAt: now });
    return record;
  }
}
