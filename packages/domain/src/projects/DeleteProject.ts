import type { Caller } from '../access/Caller.ts';
import type { BrowserProvider } from '../providers/BrowserProvider.ts';
import { endRunByCas } from '../runs/endRunByCas.ts';
import type { RunChanges } from '../runs/RunChanges.ts';
import type { RunQueue } from '../runs/RunQueue.ts';
import type { RunRepository } from '../runs/RunRepository.ts';
import { SessionOnOtherInstanceError } from '../sessions/SessionOnOtherInstanceError.ts';
import type { SessionRepository } from '../sessions/SessionRepository.ts';
import { heldElsewhere } from '../sessions/sessionReach.ts';
import type { Clock } from '../shared/Clock.ts';
import { NotFoundError } from '../shared/DomainError.ts';
import { type Logger, silentLogger } from '../shared/Logger.ts';
import { SystemClock } from '../shared/SystemClock.ts';
import { findProjectFor } from '../access/findProjectFor.ts';
import type { ProjectRepository } from './ProjectRepository.ts';

export interface DeleteProjectDeps {
  projects: ProjectRepository;
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
    const { sessions, provider } = this.deps;
    await this.cancelRuns(project.id);
    const active = await sessions.listActiveInProject(project.id);
    const elsewhere = active.filter((session) => heldElsewhere(session, provider));
    const released = await Promise.all(
      active
        .filter((session) => !elsewhere.includes(session))
        .map((session) =>
          provider.sessions.release(session.providerSessionId, session.providerProjectId).then(
            (reported) => ({ session, reported }),
            (error: unknown) => {
              (this.deps.logger ?? silentLogger).warn(
                {
                  projectId: project.id,
                  sessionId: session.id,
                  providerSessionId: session.providerSessionId,
                  error: String(error),
                },
                'could not release a session of a deleted project',
              );
              return null;
            },
          ),
        ),
    );
    if (elsewhere.length > 0) {
      // The project stays: what was released here is stored as ended, so that a retry on the
      // instance holding the rest finds only its own sessions active.
      const now = (this.deps.clock ?? SYSTEM_CLOCK).now();
      for (const { session, reported } of released.filter((r) => r !== null)) {
        const status =
          reported?.status === 'ERROR' || reported?.status === 'TIMED_OUT' ? reported.status : 'COMPLETED';
        session.end(status, reported?.endedAt ?? now);
        await sessions.updateStatus(session).catch(() => {});
      }
      throw new SessionOnOtherInstanceError(
        'Some of this project’s sessions run on another server instance, which alone can stop their browsers; release them there, or retry the delete later.',
      );
    }
    if (!(await this.deps.projects.delete(project.ownerId, project.id))) throw new NotFoundError('Project');
    // Its context profiles go too: a deleted project keeps no tenant's cookies. Best effort, logged.
    await provider.capabilities.contexts?.deleteProject?.(project.id).catch((error: unknown) => {
      (this.deps.logger ?? silentLogger).warn(
        { projectId: project.id, error: String(error) },
        'could not remove the context profiles of a deleted project',
      );
    });
  }

  private async cancelRuns(projectId: string): Promise<void> {
    const { runs, runQueue, runChanges } = this.deps;
    const now = (this.deps.clock ?? SYSTEM_CLOCK).now();
    for (const run of await runs.listActiveInProject(projectId)) {
      const { changed } = await endRunByCas(runs, run, (r) =>
        r.cancel(now, 'The run was canceled: its project was deleted.'),
      );
      if (!changed) continue;
      runQueue.interrupt(run.id);
      runChanges?.notify(run.id);
    }
  }
}
