import { asSystem } from '../access/Caller.ts';
import type { BrowserProvider } from '../providers/BrowserProvider.ts';
import type { BrowserSession } from '../sessions/BrowserSession.ts';
import type { CreateSession } from '../sessions/CreateSession.ts';
import type { SessionRepository } from '../sessions/SessionRepository.ts';
import { heldElsewhere } from '../sessions/sessionReach.ts';
import { isTerminalStatus } from '../sessions/sessionStatus.ts';
import type { Run } from './Run.ts';

/** What opening a run's session needs. */
export interface RunSessionDeps {
  sessions: SessionRepository;
  provider: BrowserProvider;
  createSession: CreateSession;
}

/** The session a run drives: its CDP endpoint, and the session itself when the run created it. */
export interface RunSession {
  readonly sessionId: string;
  readonly cdpUrl: string;
  /** The session an agent run created (it releases it when it ends); null for an ad-hoc run's. */
  readonly owned: BrowserSession | null;
}

/** The run's session cannot be used: the run ends FAILED `session_failed` with this message. */
export class RunSessionUnusable extends Error {}

/**
 * Opens the session `run` drives. An agent run creates its own, through `CreateSession` as the
 * project's owner with the settings fixed when the run was created (a `ProviderError` such as
 * `provider_rate_limited` is thrown as it is); an ad-hoc run uses its live session, asking the
 * provider for its current CDP endpoint, and throws `RunSessionUnusable` when it has ended or only
 * another instance can reach it.
 */
export async function openRunSession(deps: RunSessionDeps, run: Run): Promise<RunSession> {
  if (run.sessionRequest) {
    const { session } = await deps.createSession.execute({
      caller: asSystem(run.projectId),
      projectId: run.projectId,
      request: run.sessionRequest,
    });
    return { sessionId: session.id, cdpUrl: session.connectUrl, owned: session };
  }
  const session = run.sessionId ? await deps.sessions.findInProject(run.projectId, run.sessionId) : null;
  if (!session?.isActive) throw new RunSessionUnusable('The session has ended.');
  if (heldElsewhere(session, deps.provider))
    throw new RunSessionUnusable(
      'The session’s browser runs on another server instance, which alone can reach it.',
    );
  const snapshot = await deps.provider.sessions.get(session.providerSessionId);
  if (!snapshot || isTerminalStatus(snapshot.status)) throw new RunSessionUnusable('The session has ended.');
  return { sessionId: session.id, cdpUrl: snapshot.connectUrl, owned: null };
}
