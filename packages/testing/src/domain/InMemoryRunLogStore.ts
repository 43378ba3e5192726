import type { RunLogLine, RunLogStore } from '@browserdeck/domain';

/** Run log lines in a Map per run, by `seq`; a `seq` already stored is kept, as a database keeps it. */
export class InMemoryRunLogStore implements RunLogStore {
  private readonly byRun = new Map<string, Map<number, RunLogLine>>();
  /** How many `append` calls stored something, for tests of batching. */
  appends = 0;

  async append(runId: string, lines: readonly RunLogLine[]): Promise<void> {
    if (lines.length === 0) return;
    this.appends++;
    let stored = this.byRun.get(runId);
    if (!stored) {
      stored = new Map();
      this.byRun.set(runId, stored);
    }
    for (const line of lines) {
      if (!stored.has(line.seq)) stored.set(line.seq, { ...line, timestamp: new Date(line.timestamp) });
    }
  }

  async read(runId: string, afterSeq: number, limit: number): Promise<RunLogLine[]> {
    const stored = [...(this.byRun.get(runId)?.values() ?? [])];
    return stored
      .filter((line) => line.seq > afterSeq)
      .sort((a, b) => a.seq - b.seq)
      .slice(0, limit)
      .map((line) => ({ ...line, timestamp: new Date(line.timestamp) }));
  }

  async deleteOfRuns(runIds: readonly string[], limit: number): Promise<number> {
    let deleted = 0;
    for (const runId of new Set(runIds)) {
      const stored = this.byRun.get(runId);
      if (!stored) continue;
      for (const seq of [...stored.keys()].sort((a, b) => a - b)) {
        if (deleted >= limit) return deleted;
        stored.delete(seq);
        deleted++;
      }
      if (stored.size === 0) this.byRun.delete(runId);
    }
    return deleted;
  }

  /** Every stored line of `runId`, in `seq` order, for tests. */
  linesOf(runId: string): RunLogLine[] {
    return [...(this.byRun.get(runId)?.values() ?? [])].sort((a, b) => a.seq - b.seq);
  }
}
