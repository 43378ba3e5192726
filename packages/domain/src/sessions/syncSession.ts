import type { Clock } from '../shared/Clock.ts';
import { DomainError, type ErrorCode } from '../shared/DomainError.ts';
import type { BrowserProvider } from './BrowserProvider.ts';
import type { BrowserSession } from './BrowserSession.ts';
import type { SessionRepository } from './SessionRepository.ts';

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
 */
export async function syncSession(
  session: BrowserSession,
  deps: { provider: BrowserProvider; sessions: SessionRepository; clock: Clock },
): Promise<SessionSync> {
  if (!session.isActive) return { session, syncError: null };
  let snapshot: Awaited<ReturnType<BrowserProvider['get']>>;
  try {
    snapshot = await deps.provider.get(session.providerSessionId);
  } catch (error) {
    if (error instanceof DomainError) return { session, syncError: error.code };
    throw error;
  }
  const stored = session.answer;
  const now = deps.clock.now();
  if (snapshot) session.applyProviderSnapshot(snapshot, now);
  else session.markGone(now);
  try {
    await deps.sessions.update(session);
  } catch (error) {
    const syncError = error instanceof DomainError ? error.code : 'internal';
    return { session: session.asAnswered(stored), syncError, unstored: { refreshed: session, error } };
  }
  return { session, syncError: null };
}
