import type { Caller } from '../access/Caller.ts';
import { findProjectFor } from '../access/findProjectFor.ts';
import type { AuditTrail } from '../audit/AuditTrail.ts';
import type { BrowserProvider } from '../providers/BrowserProvider.ts';
import type { RunChanges } from '../runs/RunChanges.ts';
import type { RunQueue } from '../runs/RunQueue.ts';
import type { RunRepository } from '../runs/RunRepository.ts';
import { SessionOnOtherInstanceError } from '../sessions/SessionOnOtherInstanceError.ts';
import type { SessionRepository } from '../sessions/SessionRepository.ts';
import type { Clock } from '../shared/Clock.ts';
import { NotFoundError } from '../shared/DomainError.ts';
import { type Logger, silentLogger } from '../shared/Logger.ts';
import { SystemClock } from '../shared/SystemClock.ts';
import type { ProjectRepository } from './ProjectRepository.ts';
import { stopProjectWork } from './stopProjectWork.ts';

export interface DeleteProjectDeps {
  projects: ProjectRepository;
  audit: AuditTrail;
  /** The project's active sessions: their browsers are released before the project goes. */
  sessions: SessionRepository;
  provider: BrowserProvider;
  /** The project's active runs: canceled first, so their workers stop (their rows go with the project). */
  runs: RunRepository;
  runQueue: RunQueue;
  /** Wakes readers of the canceled runs (absent: nobody is told at once). */
  runChanges?: RunChanges;
  logger?: Logger;
  /** When sessions released here are stored as ended, should the delete be refused (default the system clock). */
  clock?: Clock;
}

const SYSTEM_CLOCK = new SystemClock();

/**
 * Hard-deletes a project with its sessions, agents, runs and context profiles. Its QUEUED and RUNNING runs are
 * canceled first, so their workers stop them (and release the sessions they created). Sessions still active at the provider are
 * released first, best effort: a release that fails is logged and does not block the delete.
 * Sessions whose browsers another server instance holds cannot be stopped from here: the ones this
 * instance holds are released (and stored as ended), and the delete is refused with
 * `session_on_other_instance`, the project kept, until those have ended or the delete is retried on
 * the instance holding them.
 */
export class DeleteProject {
  private readonly deps: DeleteProjectDeps;

  constructor(deps: DeleteProjectDeps) {
    this.deps = deps;
  }

  async execute(input: { caller: Caller; projectId: string }): Promise<void> {
    const project = await findProjectFor(this.deps.projects, input.caller, input.projectId, 'owner');
    const { provider } = this.deps;
    const elsewhere = await stopProjectWork(
      { ...this.deps, clock: this.deps.clock ?? SYSTEM_CLOCK },
      project.id,
      'The run was canceled: its project was deleted.',
    );
    if (elsewhere.length > 0) {
      // The project stays: what was released here is stored as ended, so that a retry on the
      // instance holding the rest finds only its own sessions active.
      throw new SessionOnOtherInstanceError(
        'Some of this project’s sessions run on another server instance, which alone can stop their browsers; release them there, or retry the delete later.',
      );
    }
    const change = {
      projectId: project.id,
      action: 'project.delete',
      target: { type: 'project', id: project.id },
    } as const;
    await this.deps.audit.record(input.caller, change, async () => {
      if (!(await this.deps.projects.delete(project.ownerId, project.id))) throw new NotFoundError('Project');
    });
    // Its context profiles go too: a deleted project keeps no tenant's cookies. Best effort, logged.
    await provider.capabilities.contexts?.deleteProject?.(project.id).catch((error: unknown) => {
      (this.deps.logger ?? silentLogger).warn(
        { projectId: project.id, error: String(error) },
        'could not remove the context profiles of a deleted project',
      );
    });
  }
}
