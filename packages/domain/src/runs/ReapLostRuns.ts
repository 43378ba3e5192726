import { asSystem } from '../access/Caller.ts';
import type { ReleaseSession } from '../sessions/ReleaseSession.ts';
import { SessionOnOtherInstanceError } from '../sessions/SessionOnOtherInstanceError.ts';
import type { SessionRepository } from '../sessions/SessionRepository.ts';
import type { Clock } from '../shared/Clock.ts';
import { type Logger, silentLogger } from '../shared/Logger.ts';
import { endRunByCas } from './endRunByCas.ts';
import type { Run } from './Run.ts';
import type { RunChanges } from './RunChanges.ts';
import type { RunRepository } from './RunRepository.ts';
import { RUN_HEARTBEAT_LAPSE_MS } from './runRules.ts';

/** Lapsed runs taken per batch. */
const BATCH = 100;

export interface ReapLostRunsDeps {
  runs: RunRepository;
  runChanges: RunChanges;
  sessions: SessionRepository;
  releaseSession: ReleaseSession;
  clock: Clock;
  logger?: Logger | undefined;
}

/**
 * Ends the RUNNING runs whose worker stopped answering (no heartbeat for `RUN_HEARTBEAT_LAPSE_MS`)
 * FAILED `worker_lost`, and releases the sessions they created. When the release is refused because
 * another instance holds the browser and that instance is the lost worker's own (a worker id is
 * `<instanceId>/<slot>`), the browser went with it: the session is stored ended `ERROR`. Returns how
 * many runs it ended.
 */
export class ReapLostRuns {
  private readonly deps: ReapLostRunsDeps;

  constructor(deps: ReapLostRunsDeps) {
    this.deps = deps;
  }

  async execute(): Promise<number> {
    const { runs, clock } = this.deps;
    let reaped = 0;
    for (;;) {
      const lapsed = await runs.listLapsed(new Date(clock.now().getTime() - RUN_HEARTBEAT_LAPSE_MS), BATCH);
      for (const run of lapsed) if (await this.reap(run)) reaped++;
      if (lapsed.length < BATCH) return reaped;
    }
  }

  private async reap(run: Run): Promise<boolean> {
    const lostWorker = run.workerId;
    const now = this.deps.clock.now();
    const { changed } = await endRunByCas(this.deps.runs, run, (r) =>
      r.status === 'RUNNING' && r.workerId === lostWorker
        ? r.end(
            {
              status: 'FAILED',
              error: { code: 'worker_lost', message: 'The worker executing the run stopped answering.' },
              exitCode: null,
            },
            now,
          )
        : false,
    );
    if (!changed) return false;
    this.deps.runChanges.notify(run.id);
    if (run.ownsSession && run.sessionId) await this.releaseSession(run, run.sessionId, lostWorker);
    return true;
  }

  private async releaseSession(run: Run, sessionId: string, lostWorker: string | null): Promise<void> {
    const { projectId } = run;
    try {
      await this.deps.releaseSession.execute({ caller: asSystem(projectId), projectId, sessionId });
    } catch (error) {
      if (error instanceof SessionOnOtherInstanceError && lostWorker) {
        const session = await this.deps.sessions.findInProject(projectId, sessionId);
        if (session && session.providerInstanceId === lostWorker.split('/')[0]) {
          session.end('ERROR', this.deps.clock.now());
          const stored = await this.deps.sessions.updateStatus(session).then(
            () => true,
            () => false,
          );
          if (stored) return;
        }
      }
      (this.deps.logger ?? silentLogger).warn(
        { runId: run.id, sessionId, error: String(error) },
        'could not release the session of a lost run',
      );
    }
  }
}
