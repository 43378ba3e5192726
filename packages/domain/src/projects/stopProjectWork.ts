import type { BrowserProvider } from '../providers/BrowserProvider.ts';
import { endRunByCas } from '../runs/endRunByCas.ts';
import type { RunChanges } from '../runs/RunChanges.ts';
import type { RunQueue } from '../runs/RunQueue.ts';
import type { RunRepository } from '../runs/RunRepository.ts';
import type { BrowserSession } from '../sessions/BrowserSession.ts';
import type { SessionRepository } from '../sessions/SessionRepository.ts';
import { heldElsewhere } from '../sessions/sessionReach.ts';
import { statusAfterRelease } from '../sessions/sessionStatus.ts';
import type { Clock } from '../shared/Clock.ts';
import { type Logger, silentLogger } from '../shared/Logger.ts';

/** What stopping a project's work needs. */
export interface ProjectWorkDeps {
  sessions: SessionRepository;
  provider: BrowserProvider;
  runs: RunRepository;
  runQueue: RunQueue;
  /** Wakes readers of the canceled runs (absent: nobody is told at once). */
  runChanges?: RunChanges | undefined;
  clock: Clock;
  logger?: Logger | undefined;
}

/**
 * Stops what runs in a project (its project is deleted, its owner's account disabled): cancels its
 * QUEUED and RUNNING runs with `reason` (their workers stop them, on whichever instance), and
 * releases the active sessions this instance holds, best effort (a failed release is logged),
 * storing them as ended. Answers the active sessions another instance holds: only it can stop them.
 */
export async function stopProjectWork(
  deps: ProjectWorkDeps,
  projectId: string,
  reason: string,
): Promise<BrowserSession[]> {
  const { sessions, provider, runs, runQueue, runChanges, clock } = deps;
  const logger = deps.logger ?? silentLogger;
  for (const run of await runs.listActiveInProject(projectId)) {
    const { changed } = await endRunByCas(runs, run, (r) => r.cancel(clock.now(), reason));
    if (!changed) continue;
    runQueue.interrupt(run.id);
    runChanges?.notify(run.id);
  }
  const active = await sessions.listActiveInProject(projectId);
  const elsewhere = active.filter((session) => heldElsewhere(session, provider));
  await Promise.all(
    active
      .filter((session) => !elsewhere.includes(session))
      .map(async (session) => {
        try {
          const reported = await provider.sessions.release(
            session.providerSessionId,
            session.providerProjectId,
          );
          session.end(statusAfterRelease(reported), reported?.endedAt ?? clock.now());
          await sessions.updateStatus(session);
        } catch (error) {
          logger.warn(
            {
              projectId,
              sessionId: session.id,
              providerSessionId: session.providerSessionId,
              error: String(error),
            },
            'could not release a session of a stopped project',
          );
        }
      }),
  );
  return elsewhere;
}
