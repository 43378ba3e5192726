import {
  type SessionShare,
  type SessionShareAnswer,
  type SessionShares,
  shareCounts,
} from './SessionShares.ts';

/**
 * `SessionShares` in this process: the share holds for this instance only, which is all there is
 * without a database (a provider built alone, tests). Each call runs to its end before the next
 * starts (no await inside), so claims are atomic.
 */
export class InMemorySessionShares implements SessionShares {
  private readonly shares = new Map<string, SessionShare>();

  async claim(share: SessionShare, maxPerOwner: number): Promise<SessionShareAnswer> {
    if (this.shares.has(share.sessionId)) return { granted: true };
    const held = this.ofOwner(share.ownerId, share.createdAt);
    if (held.length >= maxPerOwner) return { granted: false, expiries: held.map((s) => s.expiresAt) };
    this.shares.set(share.sessionId, share);
    return { granted: true };
  }

  async free(sessionId: string): Promise<void> {
    this.shares.delete(sessionId);
  }

  async freeInstance(instanceId: string): Promise<number> {
    let freed = 0;
    for (const [id, share] of this.shares) {
      if (share.instanceId !== instanceId) continue;
      this.shares.delete(id);
      freed++;
    }
    return freed;
  }

  async held(ownerId: string, now: Date): Promise<number> {
    return this.ofOwner(ownerId, now).length;
  }

  private ofOwner(ownerId: string, now: Date): SessionShare[] {
    const held: SessionShare[] = [];
    for (const [id, share] of this.shares) {
      if (share.ownerId !== ownerId) continue;
      if (shareCounts(share, now)) held.push(share);
      else this.shares.delete(id);
    }
    return held;
  }
}
