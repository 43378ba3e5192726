import {
  type ContextHolder,
  type ContextRecord,
  type ContextRecords,
  type ContextSave,
  isHeld,
} from './ContextRecords.ts';

/** `ContextRecords` in this process's memory, for tests: what it holds goes with the process. */
export class InMemoryContextRecords implements ContextRecords {
  private readonly records = new Map<string, ContextRecord>();

  async create(
    record: { id: string; projectId: string; createdAt: Date },
    maxPerProject: number,
  ): Promise<'created' | 'exists' | 'limit_reached'> {
    if (this.records.has(keyOf(record.projectId, record.id))) return 'exists';
    const held = [...this.records.values()].filter((r) => r.projectId === record.projectId).length;
    if (held >= maxPerProject) return 'limit_reached';
    this.records.set(keyOf(record.projectId, record.id), {
      ...record,
      updatedAt: record.createdAt,
      version: null,
      size: 0,
      holder: null,
    });
    return 'created';
  }

  async get(projectId: string, id: string): Promise<ContextRecord | null> {
    return this.records.get(keyOf(projectId, id)) ?? null;
  }

  async hold(
    projectId: string,
    id: string,
    holder: ContextHolder,
    now: Date,
  ): Promise<ContextRecord | 'busy' | null> {
    const record = this.records.get(keyOf(projectId, id));
    if (!record) return null;
    if (isHeld(record, now)) return 'busy';
    const held = { ...record, holder: { ...holder } };
    this.records.set(keyOf(projectId, id), held);
    return held;
  }

  async letGo(
    projectId: string,
    id: string,
    holder: Pick<ContextHolder, 'sessionId' | 'instanceId'>,
    saved: ContextSave | null,
  ): Promise<boolean> {
    const record = this.records.get(keyOf(projectId, id));
    if (record?.holder?.sessionId !== holder.sessionId || record.holder.instanceId !== holder.instanceId)
      return false;
    this.records.set(keyOf(projectId, id), { ...record, ...(saved ?? {}), holder: null });
    return true;
  }

  async delete(projectId: string, id: string, now: Date): Promise<ContextRecord | 'busy' | null> {
    const record = this.records.get(keyOf(projectId, id));
    if (!record) return null;
    if (isHeld(record, now)) return 'busy';
    this.records.delete(keyOf(projectId, id));
    return record;
  }

  async letGoOfInstance(instanceId: string): Promise<number> {
    let freed = 0;
    for (const [key, record] of this.records)
      if (record.holder?.instanceId === instanceId) {
        this.records.set(key, { ...record, holder: null });
        freed++;
      }
    return freed;
  }
}

function keyOf(projectId: string, id: string): string {
  return `${projectId}/${id}`;
}
