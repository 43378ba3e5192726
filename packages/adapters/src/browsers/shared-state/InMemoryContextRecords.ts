import type { ContextHolder, ContextRecord, ContextRecords } from './ContextRecords.ts';

/** `ContextRecords` in this process's memory: for tests, and for hosts with one instance and no database. */
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

  async hold(projectId: string, id: string, holder: ContextHolder): Promise<ContextRecord | 'busy' | null> {
    const record = this.records.get(keyOf(projectId, id));
    if (!record) return null;
    if (record.holder) return 'busy';
    const held = { ...record, holder: { ...holder } };
    this.records.set(keyOf(projectId, id), held);
    return held;
  }

  async letGo(
    projectId: string,
    id: string,
    holder: ContextHolder,
    saved: { version: string; size: number; updatedAt: Date } | null,
  ): Promise<boolean> {
    const record = this.records.get(keyOf(projectId, id));
    if (record?.holder?.sessionId !== holder.sessionId || record.holder.instanceId !== holder.instanceId)
      return false;
    this.records.set(keyOf(projectId, id), { ...record, ...(saved ?? {}), holder: null });
    return true;
  }

  async delete(projectId: string, id: string): Promise<ContextRecord | 'busy' | null> {
    const record = this.records.get(keyOf(projectId, id));
    if (!record) return null;
    if (record.holder) return 'busy';
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
