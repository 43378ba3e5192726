import type { BrowserProvider } from '../providers/BrowserProvider.ts';
import type { Clock } from '../shared/Clock.ts';
import { AuthError, NotFoundError } from '../shared/DomainError.ts';
import type { BrowserSession } from './BrowserSession.ts';
import { type LiveViewCredentialDeps, liveViewCredentialHolds } from './liveViewCredentialHolds.ts';
import { type LiveViewTokenClaims, readLiveViewToken } from './liveViewToken.ts';
import type { CursorSigner } from './logCursor.ts';
import { SessionEndedError } from './SessionEndedError.ts';
import { SessionOnOtherInstanceError } from './SessionOnOtherInstanceError.ts';
import type { SessionRepository } from './SessionRepository.ts';
import { heldElsewhere } from './sessionReach.ts';

export interface OpenLiveViewDeps extends LiveViewCredentialDeps {
  sessions: SessionRepository;
  provider: BrowserProvider;
  clock: Clock;
  /** The signer `GetSessionLiveView` issued the tokens with. */
  signer: CursorSigner;
}

/** What an admitted viewer may do, and what to re-check while it watches. */
export interface LiveViewGrant {
  readonly session: BrowserSession;
  /** True when the token is read-only or the viewer asked for `readOnly=true`: its input is dropped. */
  readonly readOnly: boolean;
  /** The token's claims, which `CheckLiveViewGrant` re-checks while the viewer is open. */
  readonly claims: LiveViewTokenClaims;
}

const INVALID_TOKEN = 'The live-view token is missing, invalid or expired.';

/**
 * Admits a viewer of the live-view page or its WebSocket by its token alone (no caller: the token
 * is the credential): answers the grant when the token is this server's, unexpired, for this
 * session, and the credential it was made for still holds (project not archived, API key not
 * revoked or expired, sign-in not ended). Every bad token is the same `unauthorized`, whatever was
 * wrong with it, and so is a token whose credential no longer holds; a good one for a session that
 * has since ended is `session_ended`, one whose browser another instance holds
 * `session_on_other_instance`, and one whose session is gone `not_found`. Reads the stored session
 * without asking the provider: a browser that ended meanwhile closes its viewers itself.
 * `readOnly: true` narrows a token that allows input; nothing widens a read-only one.
 */
export class OpenLiveView {
  private readonly deps: OpenLiveViewDeps;

  constructor(deps: OpenLiveViewDeps) {
    this.deps = deps;
  }

  async execute(input: {
    sessionId: string;
    token: string | undefined;
    readOnly?: boolean | undefined;
  }): Promise<LiveViewGrant> {
    const claims = input.token === undefined ? null : readLiveViewToken(this.deps.signer, input.token);
    const now = this.deps.clock.now().getTime();
    if (!claims || claims.sessionId !== input.sessionId || now >= claims.expiresAt.getTime()) {
      throw new AuthError('unauthorized', INVALID_TOKEN);
    }
    if (!(await liveViewCredentialHolds(this.deps, claims)))
      throw new AuthError('unauthorized', INVALID_TOKEN);
    const session = await this.deps.sessions.findInProject(claims.projectId, claims.sessionId);
    if (!session) throw new NotFoundError('Session');
    if (!session.isActive) throw new SessionEndedError();
    if (heldElsewhere(session, this.deps.provider)) throw new SessionOnOtherInstanceError();
    return { session, readOnly: claims.readOnly || input.readOnly === true, claims };
  }
}
