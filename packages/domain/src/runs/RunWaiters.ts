import { RateLimitedError } from '../shared/DomainError.ts';
import { RUN_MAX_WAITERS_PER_OWNER_DEFAULT } from './runRules.ts';

/** What a refused waiter is told to wait before it asks again, in seconds. */
const RETRY_AFTER_SEC = 1;

/**
 * The log streams and `wait` long polls each account holds open on this instance, at most
 * `maxPerOwner` at once (`RUN_MAX_WAITERS_PER_OWNER`): one more is refused with 429 `rate_limited`
 * before it starts waiting. One count for every use case that waits, so streams and polls share it.
 */
export class RunWaiters {
  private readonly maxPerOwner: number;
  private readonly held = new Map<string, number>();

  constructor(maxPerOwner = RUN_MAX_WAITERS_PER_OWNER_DEFAULT) {
    this.maxPerOwner = Math.max(1, maxPerOwner);
  }

  /**
   * Counts one more waiter of `ownerId`; the function it returns ends it (once, however often it is
   * called). Throws `RateLimitedError` when the account holds its most already.
   */
  enter(ownerId: string): () => void {
    const now = this.held.get(ownerId) ?? 0;
    if (now >= this.maxPerOwner)
      throw new RateLimitedError(
        RETRY_AFTER_SEC,
        `The account already holds ${this.maxPerOwner} log streams and waiting requests open; close one first.`,
      );
    this.held.set(ownerId, now + 1);
    let left = false;
    return () => {
      if (left) return;
      left = true;
      const after = (this.held.get(ownerId) ?? 1) - 1;
      if (after > 0) this.held.set(ownerId, after);
      else this.held.delete(ownerId);
    };
  }

  /** Waiters `ownerId` holds now. */
  heldBy(ownerId: string): number {
    return this.held.get(ownerId) ?? 0;
  }
}
