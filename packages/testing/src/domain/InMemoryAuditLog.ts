import type { AuditEntry, AuditLog, AuditPage } from '@browserdeck/domain';
import { decodePageCursor, encodePageCursor } from './pageCursor.ts';

const newestFirst = (a: AuditEntry, b: AuditEntry) =>
  b.at.getTime() - a.at.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/** Audit entries in an array; stores copies. `entries` shows every one, newest first, for tests. */
export class InMemoryAuditLog implements AuditLog {
  private readonly stored: AuditEntry[] = [];

  async record(entry: AuditEntry): Promise<void> {
    this.stored.push(copy(entry));
  }

  async list(projectId: string, page: { cursor?: string | undefined; limit: number }): Promise<AuditPage> {
    const before = page.cursor === undefined ? null : decodePageCursor(page.cursor);
    const rest = this.stored
      .filter(
        (e) =>
          e.projectId === projectId &&
          (!before ||
            e.at.getTime() < before.at.getTime() ||
            (e.at.getTime() === before.at.getTime() && e.id < before.id)),
      )
      .sort(newestFirst);
    const entries = rest.slice(0, page.limit).map(copy);
    const last = entries.at(-1);
    return {
      entries,
      nextCursor:
        last && rest.length > entries.length ? encodePageCursor({ at: last.at, id: last.id }) : null,
    };
  }

  async deleteBefore(cutoff: Date): Promise<number> {
    const before = this.stored.length;
    const kept = this.stored.filter((e) => e.at.getTime() >= cutoff.getTime());
    this.stored.splice(0, this.stored.length, ...kept);
    return before - kept.length;
  }

  /** Every stored entry (copies), newest first. */
  entries(): AuditEntry[] {
    return [...this.stored].sort(newestFirst).map(copy);
  }
}

function copy(entry: AuditEntry): AuditEntry {
  return { ...entry, at: new Date(entry.at), actor: { ...entry.actor }, target: { ...entry.target } };
}
