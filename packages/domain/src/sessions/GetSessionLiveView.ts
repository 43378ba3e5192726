import { authorizeProject } from '../access/authorizeProject.ts';
import type { Caller } from '../access/Caller.ts';
import type { ProjectRepository } from '../projects/ProjectRepository.ts';
import type { BrowserProvider } from '../providers/BrowserProvider.ts';
import type { ProviderLiveUrls } from '../providers/ProviderLiveUrls.ts';
import type { Clock } from '../shared/Clock.ts';
import { ConflictError, ForbiddenError, UnsupportedOptionError } from '../shared/DomainError.ts';
import type { BrowserSession } from './BrowserSession.ts';
import { findSession } from './findSession.ts';
import { issueLiveViewToken, type LiveViewCredential } from './liveViewToken.ts';
import type { CursorSigner } from './logCursor.ts';
import { SessionEndedError } from './SessionEndedError.ts';
import { SessionOnOtherInstanceError } from './SessionOnOtherInstanceError.ts';
import type { SessionRepository } from './SessionRepository.ts';
import { heldElsewhere } from './sessionReach.ts';

/** How long a live-view token works by default, in seconds (http-api.md §14: 1 h). */
export const LIVE_VIEW_TOKEN_DEFAULT_TTL_SEC = 3600;

/**
 * A session's live view: the provider's own URLs (`provider`, passed through), or a token for the
 * viewer Browserdeck serves (`browserdeck`), from which the HTTP layer builds the URLs.
 */
export type SessionLiveView =
  | { readonly kind: 'provider'; readonly urls: ProviderLiveUrls }
  | {
      readonly kind: 'browserdeck';
      readonly session: BrowserSession;
      readonly token: string;
      /** True when the token is read-only: the URLs then also carry `&readOnly=true` for the page. */
      readonly readOnly: boolean;
      readonly expiresAt: Date;
    };

export interface GetSessionLiveViewDeps {
  projects: ProjectRepository;
  sessions: SessionRepository;
  provider: BrowserProvider;
  clock: Clock;
  /** Signs live-view tokens; must be keyed (an HMAC): a token lets its holder drive the browser. */
  signer: CursorSigner;
  /** Lifetime of the tokens handed out; default `LIVE_VIEW_TOKEN_DEFAULT_TTL_SEC`. */
  tokenTtlSec?: number | undefined;
}

/**
 * The live view of an active session (http-api.md §14), for a project member or its API key. The
 * token names the caller and its credential (its sign-in session or API key), so it stops working
 * when that does or the caller leaves the project, and with `readOnly` (always, for a viewer) it is
 * itself read-only. Refused with `project_archived` in an
 * archived project (its viewers are closed), `session_ended` once the session has ended, and
 * `session_on_other_instance` when another instance holds its browser (only that one can show it);
 * `readOnly` with a provider whose own viewer cannot be made read-only is `unsupported_option`.
 * Reads the stored session; asks the provider only for its own URLs, when it has them.
 */
export class GetSessionLiveView {
  private readonly deps: GetSessionLiveViewDeps;

  constructor(deps: GetSessionLiveViewDeps) {
    this.deps = deps;
  }

  async execute(input: {
    caller: Caller;
    projectId: string;
    sessionId: string;
    /** True: a token that only watches. */
    readOnly?: boolean | undefined;
  }): Promise<SessionLiveView> {
    const { project, role } = await authorizeProject(
      this.deps.projects,
      input.caller,
      input.projectId,
      'viewer',
    );
    // A viewer watches only (SPEC §17).
    const readOnly = input.readOnly === true || role === 'viewer';
    if (project.archived) {
      throw new ConflictError(
        'project_archived',
        'The project is archived; restore it to open the live view of its sessions.',
      );
    }
    const session = await findSession(this.deps.sessions, project.id, input.sessionId);
    if (!session.isActive) throw new SessionEndedError();
    if (heldElsewhere(session, this.deps.provider)) throw new SessionOnOtherInstanceError();
    const { provider } = this.deps;
    const { liveView } = provider.capabilities;
    if (liveView) {
      if (role === 'viewer') {
        throw new ForbiddenError(
          'forbidden_for_role',
          'The provider’s own live view cannot be made read-only, so a viewer cannot open it; it needs the developer role.',
        );
      }
      if (readOnly) {
        throw new UnsupportedOptionError(
          'readOnly',
          'The provider’s own live view cannot be made read-only; embed it without input instead.',
        );
      }
      const urls = await liveView.liveUrls(session.providerSessionId);
      if (!urls) throw new SessionEndedError('The provider no longer knows this session: it has ended.');
      return { kind: 'provider', urls };
    }
    const ttlSec = this.deps.tokenTtlSec ?? LIVE_VIEW_TOKEN_DEFAULT_TTL_SEC;
    const expiresAt = new Date((Math.floor(this.deps.clock.now().getTime() / 1000) + ttlSec) * 1000);
    const token = issueLiveViewToken(this.deps.signer, {
      sessionId: session.id,
      projectId: session.projectId,
      userId: input.caller.kind === 'user' ? input.caller.userId : project.ownerId,
      credential: credentialOf(input.caller),
      readOnly,
      expiresAt,
    });
    // A read-only view hands out no connect URL that drives the browser: its signing key is masked.
    return {
      kind: 'browserdeck',
      session: readOnly ? session.masked() : session,
      token,
      readOnly,
      expiresAt,
    };
  }
}

/** The credential behind a caller, which the token names (`owner` for an in-process host). */
function credentialOf(caller: Caller): LiveViewCredential {
  if (caller.kind === 'apiKey') return { kind: 'apiKey', keyId: caller.keyId };
  if (caller.kind === 'user' && caller.signIn) return { kind: 'signIn', signInId: caller.signIn.sessionId };
  return { kind: 'owner' };
}
