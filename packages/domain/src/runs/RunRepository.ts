import type { Run } from './Run.ts';
import type { RunStatus } from './runStatus.ts';

/** Which of a project's runs `RunRepository.list` returns: the matching ones, one page of them. */
export interface RunListQuery {
  readonly agentId?: string | undefined;
  readonly sessionId?: string | undefined;
  readonly status?: RunStatus | undefined;
  readonly limit: number;
  readonly offset: number;
}

/** One page of a project's runs, newest first, and how many match in all. */
export interface RunPage {
  readonly runs: Run[];
  readonly total: number;
}

/**
 * Where runs are kept. Reads are scoped by project, except the worker's own (`findById`,
 * `listLapsed`, `listQueued`). Writes that change a status are compare-and-set on the stored
 * status, so a cancel and a worker, or two workers, never both win.
 */
export interface RunRepository {
  add(run: Run): Promise<void>;
  /**
   * Stores `run` whole when the stored run still has status `expected`; false (nothing stored) when
   * it has another, or is gone.
   */
  update(run: Run, expected: RunStatus): Promise<boolean>;
  /**
   * Records `run.heartbeatAt` and `run.logBytes` while it is RUNNING by `run.workerId`; false when it
   * no longer is (canceled, ended as lost, deleted with its project): its worker must stop it.
   */
  heartbeat(run: Run): Promise<boolean>;
  findInProject(projectId: string, runId: string): Promise<Run | null>;
  findById(runId: string): Promise<Run | null>;
  /** Newest first (`createdAt`, then id), filtered by every field `query` sets; `total` too. */
  list(projectId: string, query: RunListQuery): Promise<RunPage>;
  /** RUNNING runs whose heartbeat is older than `heartbeatBefore` (their worker is gone), oldest first. */
  listLapsed(heartbeatBefore: Date, limit: number): Promise<Run[]>;
  /** QUEUED runs, oldest first (an in-process queue picks them up again after a restart). */
  listQueued(limit: number): Promise<Run[]>;
  /** How many of the account's runs are QUEUED, over all its projects (its fair share of the queue). */
  countQueuedOfOwner(ownerId: string): Promise<number>;
  /** The project's runs that are QUEUED or RUNNING (canceled before the project is deleted). */
  listActiveInProject(projectId: string): Promise<Run[]>;
  /** How many runs have each status, over every project (metrics). */
  countByStatus(): Promise<Record<RunStatus, number>>;
  /**
   * Ids of up to `limit` terminal runs, over every project, that ended before `endedBefore`, the
   * longest ended first (`endedAt`, then id): those past their retention (`PruneOldRuns`). A run
   * still QUEUED or RUNNING is never among them, however old.
   */
  listEndedBefore(endedBefore: Date, limit: number): Promise<string[]>;
  /**
   * Deletes those of `runIds` that are terminal, in one short statement (no long lock); an active or
   * unknown id is left alone. Returns how many it deleted. Their log lines go first
   * (`RunLogStore.deleteOfRuns`); a database's cascade takes any left.
   */
  deleteEnded(runIds: readonly string[]): Promise<number>;
}
