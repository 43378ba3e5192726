import type { Clock } from '../shared/Clock.ts';
import type { AuditLog } from './AuditLog.ts';
import { AUDIT_RETENTION_DAYS_DEFAULT } from './auditRules.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Deletes audit entries older than the retention (`AUDIT_RETENTION_DAYS`); how many went. */
export class PruneAuditLog {
  private readonly deps: { auditLog: AuditLog; clock: Clock; retentionDays?: number | undefined };

  constructor(deps: { auditLog: AuditLog; clock: Clock; retentionDays?: number | undefined }) {
    this.deps = deps;
  }

  execute(): Promise<number> {
    const days = this.deps.retentionDays ?? AUDIT_RETENTION_DAYS_DEFAULT;
    return this.deps.auditLog.deleteBefore(new Date(this.deps.clock.now().getTime() - days * DAY_MS));
  }
}
