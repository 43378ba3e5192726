import { NotFoundError } from '../shared/DomainError.ts';
import type { BrowserSession } from './BrowserSession.ts';
import type { SessionRepository } from './SessionRepository.ts';

/** The project's session, or `not_found`. */
export async function findSession(
  sessions: SessionRepository,
  projectId: string,
  sessionId: string,
): Promise<BrowserSession> {
  const session = await sessions.findInProject(projectId, sessionId);
  if (!session) throw new NotFoundError('Session');
  return session;
}
