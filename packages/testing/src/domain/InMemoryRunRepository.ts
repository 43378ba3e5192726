import type { Run, RunListQuery, RunPage, RunRepository, RunStatus } from '@browserdeck/domain';
import { RUN_STATUSES } from '@browserdeck/domain';
import { cloneEntity } from './cloneEntity.ts';

const newestFirst = (a: Run, b: Run) =>
  b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
const oldestFirst = (a: Run, b: Run) => -newestFirst(a, b);
/** When a run ended, in ms; never, for one that has not. */
const endedAt = (run: Run) => run.endedAt?.getTime() ?? Number.POSITIVE_INFINITY;

/** Runs in a Map; stores copies, and writes status changes by compare-and-set as a database does. */
export class InMemoryRunRepository implements RunRepository {
  private readonly runs = new Map<string, Run>();

  async add(run: Run): Promise<void> {
    this.runs.set(run.id, cloneEntity(run));
  }

  async update(run: Run, expected: RunStatus): Promise<boolean> {
    const stored = this.runs.get(run.id);
    if (!stored || stored.status !== expected) return false;
    this.runs.set(run.id, cloneEntity(run));
    return true;
  }

  async heartbeat(run: Run): Promise<boolean> {
    const stored = this.runs.get(run.id);
    if (stored?.status !== 'RUNNING' || stored.workerId !== run.workerId) return false;
    stored.beat(run.heartbeatAt ?? stored.heartbeatAt ?? new Date(0), run.logBytes);
    return true;
  }

  async findInProject(projectId: string, runId: string): Promise<Run | null> {
    const run = this.runs.get(runId);
    return run && run.projectId === projectId ? cloneEntity(run) : null;
  }

  async findById(runId: string): Promise<Run | null> {
    const run = this.runs.get(runId);
    return run ? cloneEntity(run) : null;
  }

  async list(projectId: string, query: RunListQuery): Promise<RunPage> {
    const { agentId, sessionId, status } = query;
    const all = [...this.runs.values()]
      .filter(
        (r) =>
          r.projectId === projectId &&
          (agentId === undefined || r.agentId === agentId) &&
          (sessionId === undefined || r.sessionId === sessionId) &&
          (status === undefined || r.status === status),
      )
      .sort(newestFirst);
    return { runs: all.slice(query.offset, query.offset + query.limit).map(cloneEntity), total: all.length };
  }

  async listLapsed(heartbeatBefore: Date, limit: number): Promise<Run[]> {
    return [...this.runs.values()]
      .filter((r) => r.status === 'RUNNING' && (r.heartbeatAt?.getTime() ?? 0) < heartbeatBefore.getTime())
      .sort((a, b) => (a.heartbeatAt?.getTime() ?? 0) - (b.heartbeatAt?.getTime() ?? 0) || oldestFirst(a, b))
      .slice(0, limit)
      .map(cloneEntity);
  }

  async listQueued(limit: number): Promise<Run[]> {
    return [...this.runs.values()]
      .filter((r) => r.status === 'QUEUED')
      .sort(oldestFirst)
      .slice(0, limit)
      .map(cloneEntity);
  }

  async countQueuedOfOwner(ownerId: string): Promise<number> {
    return [...this.runs.values()].filter((r) => r.status === 'QUEUED' && r.ownerId === ownerId).length;
  }

  async listActiveInProject(projectId: string): Promise<Run[]> {
    return [...this.runs.values()]
      .filter((r) => r.projectId === projectId && !r.isTerminal)
      .sort(oldestFirst)
      .map(cloneEntity);
  }

  async countByStatus(): Promise<Record<RunStatus, number>> {
    const counts = Object.fromEntries(RUN_STATUSES.map((s) => [s, 0])) as Record<RunStatus, number>;
    for (const run of this.runs.values()) counts[run.status]++;
    return counts;
  }

  async listEndedBefore(endedBefore: Date, limit: number): Promise<string[]> {
    return [...this.runs.values()]
      .filter((r) => r.isTerminal && endedAt(r) < endedBefore.getTime())
      .sort((a, b) => endedAt(a) - endedAt(b) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .slice(0, limit)
      .map((r) => r.id);
  }

  async deleteEnded(runIds: readonly string[]): Promise<number> {
    let deleted = 0;
    for (const id of new Set(runIds)) {
      if (this.runs.get(id)?.isTerminal && this.runs.delete(id)) deleted++;
    }
    return deleted;
  }

  /** Every stored run (copies), for tests. */
  all(): Run[] {
    return [...this.runs.values()].sort(oldestFirst).map(cloneEntity);
  }
}
