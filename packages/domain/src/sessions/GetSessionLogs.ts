import type { Caller } from '../access/Caller.ts';
import { projectForWork } from '../access/projectForWork.ts';
import type { ProjectRepository } from '../projects/ProjectRepository.ts';
import type { BrowserProvider } from '../providers/BrowserProvider.ts';
import { Checks } from '../shared/checks.ts';
import { findSession } from './findSession.ts';
import { type CursorSigner, decodeLogCursor, encodeLogCursor } from './logCursor.ts';
import type { SessionLogEntry } from './SessionLogEntry.ts';
import { SessionOnOtherInstanceError } from './SessionOnOtherInstanceError.ts';
import type { SessionRepository } from './SessionRepository.ts';
import { heldElsewhere } from './sessionReach.ts';
import { SESSION_LOGS_DEFAULT_LIMIT, SESSION_LOGS_MAX_LIMIT } from './sessionRules.ts';

export interface GetSessionLogsDeps {
  projects: ProjectRepository;
  sessions: SessionRepository;
  provider: BrowserProvider;
  /** Signs cursors so they cannot be forged (a server passes a keyed one); default an unkeyed checksum. */
  cursorSigner?: CursorSigner;
}

/**
 * A page of a session's provider logs. The provider returns them unpaged; we page with opaque
 * cursors. A session another instance holds is refused with `session_on_other_instance`: its logs
 * are there.
 */
export class GetSessionLogs {
  private readonly deps: GetSessionLogsDeps;

  constructor(deps: GetSessionLogsDeps) {
    this.deps = deps;
  }

  async execute(input: {
    caller: Caller;
    projectId: string;
    sessionId: string;
    cursor?: string | undefined;
    limit?: number | undefined;
  }): Promise<{ logs: SessionLogEntry[]; nextCursor: string | null }> {
    const limit = input.limit ?? SESSION_LOGS_DEFAULT_LIMIT;
    new Checks()
      .require(
        Number.isInteger(limit) && limit >= 1 && limit <= SESSION_LOGS_MAX_LIMIT,
        'limit',
        `must be 1 to ${SESSION_LOGS_MAX_LIMIT}`,
      )
      .throwIfAny();
    const project = await projectForWork(this.deps.projects, input.caller, input.projectId, 'viewer', false);
    const session = await findSession(this.deps.sessions, project.id, input.sessionId);
    const offset =
      input.cursor === undefined ? 0 : decodeLogCursor(session.id, input.cursor, this.deps.cursorSigner);
    // The logs live with the browser's provider instance, ended sessions' too.
    if (heldElsewhere(session, this.deps.provider)) throw new SessionOnOtherInstanceError();
    const all = await this.deps.provider.sessions.logs(session.providerSessionId);
    const logs = all.slice(offset, offset + limit);
    const next = offset + logs.length;
    return {
      logs,
      nextCursor: next < all.length ? encodeLogCursor(session.id, next, this.deps.cursorSigner) : null,
    };
  }
}
