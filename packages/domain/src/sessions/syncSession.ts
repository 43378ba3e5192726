import type { BrowserProvider } from '../providers/BrowserProvider.ts';
import type { Clock } from '../shared/Clock.ts';
import { DomainError, type ErrorCode } from '../shared/DomainError.ts';
import type { BrowserSession } from './BrowserSession.ts';
import type { SessionRepository } from './SessionRepository.ts';
import { OTHER_INSTANCE_EXPIRY_GRACE_SEC, sessionReach } from './sessionReach.ts';

/** How a refresh went. */
export interface SessionSync {
  /** The session as stored now: refreshed, or as it was when the refresh failed. */
  readonly session: BrowserSession;
  /**
   * Why it was not refreshed: the provider's error code, or, when storing the refresh failed, the
   * store's (`database_unavailable`, else `internal`). Null when it was refreshed (or is terminal).
   */
  readonly syncError: ErrorCode | null;
  /** When the provider answered but storing its answer failed: that answer applied, and the error. */
  readonly unstored?: { readonly refreshed: BrowserSession; readonly error: unknown };
}

/**
 * Refreshes an active session from the provider and stores the result: a provider 404 means the
 * session is over (`COMPLETED`). When the provider fails, or storing its answer fails (the database
 * is down, or refuses a value the provider sent), the session is answered as stored with the
 * error's code. An error the provider adapter did not translate is thrown. Terminal sessions are
 * left alone.
 *
 * A session another instance holds (`sessionReach`) is never asked about, nor taken as gone: it is
 * answered as stored with `session_on_other_instance`, unless it is past its end of life by
 * `graceSec`, when it is ended as `TIMED_OUT` (`BrowserSession.expire`) and stored like a refresh.
 */
export async function syncSession(
  session: BrowserSession,
  deps: { provider: BrowserProvider; sessions: SessionRepository; clock: Clock },
  graceSec: number = OTHER_INSTANCE_EXPIRY_GRACE_SEC,
): Promise<SessionSync> {
  if (!session.isActive) return { session, syncError: null };
  const reach = sessionReach(session, deps.provider, deps.clock.now(), graceSec);
  if (reach === 'elsewhere') return { session, syncError: 'session_on_other_instance' };
  let snapshot: Awaited<ReturnType<BrowserProvider['sessions']['get']>> = null;
  if (reach === 'here') {
    try {
      snapshot = await deps.provider.sessions.get(session.providerSessionId);
    } catch (error) {
      if (error instanceof DomainError) return { session, syncError: error.code };
      throw error;
    }
  }
  const stored = session.answer;
  const now = deps.clock.now();
  if (reach === 'expired_elsewhere') session.expire(now);
  else if (snapshot) session.applyProviderSnapshot(snapshot, now);
  else session.markGone(now);
  try {
    await deps.sessions.update(session);
  } catch (error) {
    const syncError = error instanceof DomainError ? error.code : 'internal';
    return { session: session.asAnswered(stored), syncError, unstored: { refreshed: session, error } };
  }
  return { session, syncError: null };
}
