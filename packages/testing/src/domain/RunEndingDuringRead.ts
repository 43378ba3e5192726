import type {
  Clock,
  Run,
  RunChanges,
  RunListQuery,
  RunPage,
  RunRepository,
  RunStatus,
} from '@browserdeck/domain';

/**
 * A run repository over `inner` that, once armed (`endOnNextRead`), lets the run end *during* the
 * next `findInProject`: after taking the reader's snapshot it stores the run canceled and notifies
 * `changes`, then answers the stale snapshot. This is the race a reader that waits for changes must
 * survive: it only sees the end if its waiter was in place before that read.
 */
export class RunEndingDuringRead implements RunRepository {
  /** How many times the armed read has ended a run. */
  endings = 0;
  private armed = false;
  private readonly inner: RunRepository;
  private readonly changes: RunChanges;
  private readonly clock: Clock;

  constructor(inner: RunRepository, changes: RunChanges, clock: Clock) {
    this.inner = inner;
    this.changes = changes;
    this.clock = clock;
  }

  /** The next `findInProject` of an active run ends it while the read is under way. */
  endOnNextRead(): void {
    this.armed = true;
  }

  async findInProject(projectId: string, runId: string): Promise<Run | null> {
    const snapshot = await this.inner.findInProject(projectId, runId);
    if (this.armed && snapshot && !snapshot.isTerminal) {
      this.armed = false;
      const stored = (await this.inner.findById(runId))!;
      const before = stored.status;
      stored.cancel(this.clock.now());
      if (!(await this.inner.update(stored, before))) throw new Error(`Run ${runId} changed under the test.`);
      this.endings++;
      this.changes.notify(runId);
    }
    return snapshot;
  }

  add(run: Run): Promise<void> {
    return this.inner.add(run);
  }

  update(run: Run, expected: RunStatus): Promise<boolean> {
    return this.inner.update(run, expected);
  }

  heartbeat(run: Run): Promise<boolean> {
    return this.inner.heartbeat(run);
  }

  findById(runId: string): Promise<Run | null> {
    return this.inner.findById(runId);
  }

  list(projectId: string, query: RunListQuery): Promise<RunPage> {
    return this.inner.list(projectId, query);
  }

  listLapsed(heartbeatBefore: Date, limit: number): Promise<Run[]> {
    return this.inner.listLapsed(heartbeatBefore, limit);
  }

  listQueued(limit: number): Promise<Run[]> {
    return this.inner.listQueued(limit);
  }

  countQueuedOfOwner(ownerId: string): Promise<number> {
    return this.inner.countQueuedOfOwner(ownerId);
  }

  listActiveInProject(projectId: string): Promise<Run[]> {
    return this.inner.listActiveInProject(projectId);
  }

  countByStatus(): Promise<Record<RunStatus, number>> {
    return this.inner.countByStatus();
  }

  listEndedBefore(endedBefore: Date, limit: number): Promise<string[]> {
    return this.inner.listEndedBefore(endedBefore, limit);
  }

  deleteEnded(runIds: readonly string[]): Promise<number> {
    return this.inner.deleteEnded(runIds);
  }
}
