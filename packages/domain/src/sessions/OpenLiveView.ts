import type { Clock } from '../shared/Clock.ts';
import { AuthError, NotFoundError } from '../shared/DomainError.ts';
import type { BrowserProvider } from './BrowserProvider.ts';
import type { BrowserSession } from './BrowserSession.ts';
import { readLiveViewToken } from './liveViewToken.ts';
import type { CursorSigner } from './logCursor.ts';
import { SessionEndedError } from './SessionEndedError.ts';
import { SessionOnOtherInstanceError } from './SessionOnOtherInstanceError.ts';
import type { SessionRepository } from './SessionRepository.ts';
import { heldElsewhere } from './sessionReach.ts';

export interface OpenLiveViewDeps {
  sessions: SessionRepository;
  provider: BrowserProvider;
  clock: Clock;
  /** The signer `GetSessionLiveView` issued the tokens with. */
  signer: CursorSigner;
}

/**
 * Admits a viewer of the live-view page or its WebSocket by its token alone (no caller: the token
 * is the credential): answers the session when the token is this server's, unexpired and for this
 * session. Every bad token is the same `unauthorized`, whatever was wrong with it; a good one for a
 * session that has since ended is `session_ended`, one whose browser another instance holds
 * `session_on_other_instance`, and one whose session is gone `not_found`. Reads the stored session
 * without asking the provider: a browser that ended meanwhile closes its viewers itself.
 */
export class OpenLiveView {
  private readonly deps: OpenLiveViewDeps;

  constructor(deps: OpenLiveViewDeps) {
    this.deps = deps;
  }

  async execute(input: { sessionId: string; token: string | undefined }): Promise<BrowserSession> {
    const claims = input.token === undefined ? null : readLiveViewToken(this.deps.signer, input.token);
    const now = this.deps.clock.now().getTime();
    if (!claims || claims.sessionId !== input.sessionId || now >= claims.expiresAt.getTime()) {
      throw new AuthError('unauthorized', 'The live-view token is missing, invalid or expired.');
    }
    const session = await this.deps.sessions.findInProject(claims.projectId, claims.sessionId);
    if (!session) throw new NotFoundError('Session');
    if (!session.isActive) throw new SessionEndedError();
    if (heldElsewhere(session, this.deps.provider)) throw new SessionOnOtherInstanceError();
    return session;
  }
}
