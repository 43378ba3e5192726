import type { BrowserSession } from './BrowserSession.ts';

/** The longest the reconciler waits between two attempts to refresh a failing session. */
export const SYNC_RETRY_MAX_DELAY_SEC = 300;
/** How long past its end of life (`expiresAt`) a session that cannot be stored stays active. */
export const SYNC_EXPIRY_GRACE_SEC = 300;
/** Unsynced for this many intervals, a session the provider says has ended is given up on. */
export const SYNC_GIVE_UP_INTERVALS = 4;

/**
 * How the reconciler treats a session whose refresh fails (docs/decisions.md, "Reconciler"). Times
 * count from the session's stored `lastSyncedAt`, the last refresh that was stored, so every
 * instance and a restarted server agree without storing anything more.
 */
export interface SyncRetryPolicy {
  /** The shortest wait before the next attempt: the reconciler's interval. */
  readonly minDelaySec: number;
  /** The longest wait before the next attempt. */
  readonly maxDelaySec: number;
  /**
   * A session the provider reports ended, whose refresh cannot be stored, is ended as `ERROR` once
   * it has gone this long without a stored refresh (several failed attempts, not one).
   */
  readonly giveUpAfterSec: number;
  /** A session whose refresh cannot be stored is ended as `ERROR` this long after its `expiresAt`. */
  readonly expiryGraceSec: number;
}

/** The policy for a reconciler that runs every `intervalSec`. */
export function syncRetryPolicy(intervalSec: number): SyncRetryPolicy {
  return {
    minDelaySec: intervalSec,
    maxDelaySec: Math.max(intervalSec, SYNC_RETRY_MAX_DELAY_SEC),
    giveUpAfterSec: SYNC_GIVE_UP_INTERVALS * intervalSec,
    expiryGraceSec: SYNC_EXPIRY_GRACE_SEC,
  };
}

/**
 * When to try a session again after a failed attempt at `now`: after as long as it has gone without
 * a stored refresh, between the policy's bounds. So the waits double (15 s, 30 s, 1 min, 2 min, …)
 * up to the cap, and a session that failed once is back in the normal rotation after one success.
 */
export function syncRetryAt(stored: BrowserSession, now: Date, policy: SyncRetryPolicy): Date {
  const unsyncedMs = now.getTime() - stored.lastSyncedAt.getTime();
  const delayMs = Math.min(policy.maxDelaySec * 1000, Math.max(policy.minDelaySec * 1000, unsyncedMs));
  return new Date(now.getTime() + delayMs);
}

/** Why a session whose refresh could not be stored is ended as `ERROR`, if it is. */
export type SyncGiveUpReason = 'provider_ended' | 'past_expiry';

/**
 * Whether to give up on storing the refresh of `stored` (as stored) that the provider reported as
 * `refreshed`, and end it as `ERROR` instead: when the provider says it has ended and it has gone
 * `giveUpAfterSec` without a stored refresh, or when it is past its end of life (`expiresAt`, else
 * `startedAt + timeoutSec`) by `expiryGraceSec`. Otherwise null: try again later.
 */
export function syncGiveUpReason(
  stored: BrowserSession,
  refreshed: BrowserSession,
  now: Date,
  policy: SyncRetryPolicy,
): SyncGiveUpReason | null {
  const unsyncedMs = now.getTime() - stored.lastSyncedAt.getTime();
  if (!refreshed.isActive && unsyncedMs >= policy.giveUpAfterSec * 1000) return 'provider_ended';
  const endOfLife = stored.expiresAt?.getTime() ?? stored.startedAt.getTime() + stored.timeoutSec * 1000;
  if (now.getTime() >= endOfLife + policy.expiryGraceSec * 1000) return 'past_expiry';
  return null;
}
