import type { BrowserProvider } from '../providers/BrowserProvider.ts';
import type { BrowserSession } from './BrowserSession.ts';
import { SYNC_EXPIRY_GRACE_SEC } from './syncRetry.ts';

/**
 * Whether this instance's provider can reach a session's browser: `here` (a session of no instance
 * in particular, or of this one), `elsewhere` (another instance holds it: leave it as stored), or
 * `expired_elsewhere` (another instance's session, still active when stored but past its end of
 * life by the grace: it is over wherever it ran, and any instance may end it).
 */
export const SESSION_REACHES = ['here', 'elsewhere', 'expired_elsewhere'] as const;
export type SessionReach = (typeof SESSION_REACHES)[number];

/**
 * How far past its end of life (`BrowserSession.endOfLife`) another instance's session must be
 * before this one ends it: the holding instance refreshes it within a reconciler interval, so a
 * session that long past due was not refreshed because nobody holds it any more.
 */
export const OTHER_INSTANCE_EXPIRY_GRACE_SEC = SYNC_EXPIRY_GRACE_SEC;

/** Where `session`'s browser is, seen from `provider` at `now` (see `SessionReach`). */
export function sessionReach(
  session: BrowserSession,
  provider: BrowserProvider,
  now: Date,
  graceSec: number = OTHER_INSTANCE_EXPIRY_GRACE_SEC,
): SessionReach {
  if (!heldElsewhere(session, provider)) return 'here';
  const expired = now.getTime() >= session.endOfLife.getTime() + graceSec * 1000;
  return session.isActive && expired ? 'expired_elsewhere' : 'elsewhere';
}

/**
 * True when another provider instance than `provider` holds `session`'s browser (whatever its
 * status) and `provider` cannot carry calls to it (`placement.reachesOtherInstances`).
 */
export function heldElsewhere(session: BrowserSession, provider: BrowserProvider): boolean {
  const { placement } = provider.capabilities;
  if (placement?.reachesOtherInstances) return false;
  return session.providerInstanceId !== null && session.providerInstanceId !== placement?.instanceId;
}
