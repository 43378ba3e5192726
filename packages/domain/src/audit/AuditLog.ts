import type { AuditEntry } from './AuditEntry.ts';

/** One page of a project's audit log, newest first. */
export interface AuditPage {
  readonly entries: AuditEntry[];
  /** Where the next (older) page starts; null on the last page. */
  readonly nextCursor: string | null;
}

/**
 * Where audit entries are kept (SPEC §17). `record` joins the transaction it is called in
 * (`Transactions.run`), so an entry is stored exactly when its change is.
 */
export interface AuditLog {
  record(entry: AuditEntry): Promise<void>;
  /** A page of the project's entries, newest first; `cursor` is a `nextCursor` this answered. */
  list(projectId: string, page: { cursor?: string | undefined; limit: number }): Promise<AuditPage>;
  /** Removes entries older than `cutoff`; how many. */
  deleteBefore(cutoff: Date): Promise<number>;
}
