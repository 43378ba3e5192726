import type { Caller } from '../access/Caller.ts';
import { projectForWork } from '../access/projectForWork.ts';
import type { ProjectRepository } from '../projects/ProjectRepository.ts';
import type { BrowserProvider } from '../providers/BrowserProvider.ts';
import { DomainError, NotImplementedError } from '../shared/DomainError.ts';
import type { BrowserSession } from './BrowserSession.ts';
import { findSession } from './findSession.ts';
import { SessionOnOtherInstanceError } from './SessionOnOtherInstanceError.ts';
import type { SessionRepository } from './SessionRepository.ts';
import { heldElsewhere } from './sessionReach.ts';

export interface GetSessionDownloadsDeps {
  projects: ProjectRepository;
  sessions: SessionRepository;
  provider: BrowserProvider;
}

/** A session's downloads: the session, and its files as one zip, streamed by the provider. */
export interface SessionDownloads {
  readonly session: BrowserSession;
  /** The zip's bytes; read it once. */
  readonly archive: AsyncIterable<Uint8Array>;
}

/**
 * The files a session's browser downloaded, as one zip (http-api.md §5), while the session runs and
 * for the provider's retention period after it. A session with no downloads is an empty zip. Past
 * the retention period (or at a provider that no longer knows the session) it is `not_found`; a
 * provider without downloads is `not_implemented`; a session another instance holds, which this one
 * cannot carry calls to, is `session_on_other_instance` (its files are there).
 */
export class GetSessionDownloads {
  private readonly deps: GetSessionDownloadsDeps;

  constructor(deps: GetSessionDownloadsDeps) {
    this.deps = deps;
  }

  async execute(input: { caller: Caller; projectId: string; sessionId: string }): Promise<SessionDownloads> {
    const project = await projectForWork(this.deps.projects, input.caller, input.projectId, 'viewer', false);
    const session = await findSession(this.deps.sessions, project.id, input.sessionId);
    const { provider } = this.deps;
    const { files } = provider.capabilities;
    if (!files) {
      throw new NotImplementedError(`The ${provider.name} provider keeps no downloads of its sessions.`);
    }
    if (heldElsewhere(session, provider)) throw new SessionOnOtherInstanceError();
    const archive = await files.downloads(session.providerSessionId);
    if (!archive) {
      throw new DomainError(
        'not_found',
        'The session’s downloads are no longer kept: they are removed a while after the session ends.',
      );
    }
    return { session, archive };
  }
}
