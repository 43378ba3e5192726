import type { BrowserProvider } from '../sessions/BrowserProvider.ts';
import type { SessionRepository } from '../sessions/SessionRepository.ts';
import { NotFoundError } from '../shared/DomainError.ts';
import { type Logger, silentLogger } from '../shared/Logger.ts';
import { findOwnedProject } from './findOwnedProject.ts';
import type { ProjectRepository } from './ProjectRepository.ts';

export interface DeleteProjectDeps {
  projects: ProjectRepository;
  /** The project's active sessions: their browsers are released before the project goes. */
  sessions: SessionRepository;
  provider: BrowserProvider;
  logger?: Logger;
}

/**
 * Hard-deletes a project with its sessions and agents. Sessions still active at the provider are
 * released first, best effort: a release that fails is logged and does not block the delete.
 */
export class DeleteProject {
  private readonly deps: DeleteProjectDeps;

  constructor(deps: DeleteProjectDeps) {
    this.deps = deps;
  }

  async execute(input: { ownerId: string; projectId: string }): Promise<void> {
    const project = await findOwnedProject(this.deps.projects, input.ownerId, input.projectId);
    const { sessions, provider } = this.deps;
    const active = await sessions.listActiveInProject(project.id);
    await Promise.all(
      active.map((session) =>
        provider.release(session.providerSessionId, session.providerProjectId).catch((error: unknown) => {
          (this.deps.logger ?? silentLogger).warn(
            {
              projectId: project.id,
              sessionId: session.id,
              providerSessionId: session.providerSessionId,
              error: String(error),
            },
            'could not release a session of a deleted project',
          );
        }),
      ),
    );
    if (!(await this.deps.projects.delete(input.ownerId, project.id))) throw new NotFoundError('Project');
  }
}
