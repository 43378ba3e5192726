import type { Caller } from '../access/Caller.ts';
import { findProjectFor } from '../access/findProjectFor.ts';
import type { ProjectRepository } from '../projects/ProjectRepository.ts';
import { Checks } from '../shared/checks.ts';
import type { AuditLog, AuditPage } from './AuditLog.ts';
import { AUDIT_PAGE_DEFAULT, AUDIT_PAGE_MAX } from './auditRules.ts';

/** A page of a project's audit log, newest first (SPEC §17; admins). */
export class ListAuditEntries {
  private readonly deps: { projects: ProjectRepository; auditLog: AuditLog };

  constructor(deps: { projects: ProjectRepository; auditLog: AuditLog }) {
    this.deps = deps;
  }

  async execute(input: {
    caller: Caller;
    projectId: string;
    cursor?: string | undefined;
    limit?: number | undefined;
  }): Promise<AuditPage> {
    const project = await findProjectFor(this.deps.projects, input.caller, input.projectId, 'admin');
    const limit = input.limit ?? AUDIT_PAGE_DEFAULT;
    new Checks()
      .require(
        Number.isInteger(limit) && limit >= 1 && limit <= AUDIT_PAGE_MAX,
        'limit',
        `must be an integer from 1 to ${AUDIT_PAGE_MAX}`,
      )
      .throwIfAny();
    return this.deps.auditLog.list(project.id, { cursor: input.cursor, limit });
  }
}
