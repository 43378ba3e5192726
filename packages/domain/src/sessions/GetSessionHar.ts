import type { Caller } from '../access/Caller.ts';
import { projectForWork } from '../access/projectForWork.ts';
import type { ProjectRole } from '../access/projectRoles.ts';
import type { ProjectRepository } from '../projects/ProjectRepository.ts';
import type { BrowserProvider } from '../providers/BrowserProvider.ts';
import type { HarDocument } from '../providers/ProviderCapabilities.ts';
import { DomainError, NotImplementedError } from '../shared/DomainError.ts';
import { findSession } from './findSession.ts';
import type { SessionRepository } from './SessionRepository.ts';

export interface GetSessionHarDeps {
  projects: ProjectRepository;
  sessions: SessionRepository;
  provider: BrowserProvider;
}

/**
 * A session's network as HAR 1.2 (SPEC §18): every request of every tab, during the session and
 * after it, from any instance (the capture is in shared storage, not with the browser). Sensitive
 * header values are redacted unless `sensitive`, which needs the `developer` role (a viewer reads
 * secrets masked); proxy credentials never appear. A provider without capture is `not_implemented`;
 * a session with no capture kept (made before capture, or past the retention) is `not_found`.
 */
export class GetSessionHar {
  private readonly deps: GetSessionHarDeps;

  constructor(deps: GetSessionHarDeps) {
    this.deps = deps;
  }

  async execute(input: {
    caller: Caller;
    projectId: string;
    sessionId: string;
    sensitive?: boolean | undefined;
  }): Promise<HarDocument> {
    const sensitive = input.sensitive ?? false;
    const least: ProjectRole = sensitive ? 'developer' : 'viewer';
    const project = await projectForWork(this.deps.projects, input.caller, input.projectId, least, false);
    const session = await findSession(this.deps.sessions, project.id, input.sessionId);
    const { provider } = this.deps;
    const { network } = provider.capabilities;
    if (!network) {
      throw new NotImplementedError(
        `The ${provider.name} provider does not capture its sessions’ network; HAR is for local and Selenium Grid sessions.`,
      );
    }
    const har = await network.har(session.providerSessionId, { sensitive });
    if (!har) {
      throw new DomainError(
        'not_found',
        'No network capture of this session is kept: it was made without one, or is past the retention.',
      );
    }
    return har;
  }
}
