import type { Clock } from '../shared/Clock.ts';
import { DomainError, type ErrorCode } from '../shared/DomainError.ts';
import type { BrowserProvider } from './BrowserProvider.ts';
import type { BrowserSession } from './BrowserSession.ts';
import type { SessionRepository } from './SessionRepository.ts';

/**
 * Refreshes an active session from the provider and stores the result: a provider 404 means the
 * session is over (`COMPLETED`). When the provider fails, the session stays as stored and the
 * error's code is returned. Terminal sessions are left alone.
 */
export async function syncSession(
  session: BrowserSession,
  deps: { provider: BrowserProvider; sessions: SessionRepository; clock: Clock },
): Promise<{ syncError: ErrorCode | null }> {
  if (!session.isActive) return { syncError: null };
  let snapshot: Awaited<ReturnType<BrowserProvider['get']>>;
  try {
    snapshot = await deps.provider.get(session.providerSessionId);
  } catch (error) {
    if (error instanceof DomainError) return { syncError: error.code };
    throw error;
  }
  const now = deps.clock.now();
  if (snapshot) session.applyProviderSnapshot(snapshot, now);
  else session.markGone(now);
  await deps.sessions.update(session);
  return { syncError: null };
}
