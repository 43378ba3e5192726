import type { Caller } from '../access/Caller.ts';
import { findProjectFor } from '../access/findProjectFor.ts';
import type { ProjectGrant } from '../access/ProjectGrant.ts';
import { Checks } from '../shared/checks.ts';
import { NotFoundError } from '../shared/DomainError.ts';
import type { MembersDeps } from './membersDeps.ts';

/**
 * Hands a project to another of its members (SPEC §17; the owner only): they become its `owner`
 * and the old owner an `admin`. From then on its sessions and runs count against the new owner's
 * share. Refused with 404 when `userId` is no member, `slug_taken` when they own a project of that slug,
 * and `validation_failed` on `userId` when their account is disabled.
 */
export class TransferProject {
  private readonly deps: Pick<MembersDeps, 'projects' | 'members' | 'users' | 'audit' | 'clock'>;

  constructor(deps: Pick<MembersDeps, 'projects' | 'members' | 'users' | 'audit' | 'clock'>) {
    this.deps = deps;
  }

  async execute(input: { caller: Caller; projectId: string; userId: string }): Promise<ProjectGrant> {
    const project = await findProjectFor(this.deps.projects, input.caller, input.projectId, 'owner');
    // A disabled owner closes the project to everyone: it goes only to an enabled account.
    const target = await this.deps.users.findById(input.userId);
    new Checks()
      .require(
        input.userId !== project.ownerId,
        'userId',
        'must be another member: this is the owner already',
      )
      .require(!target?.disabledAt, 'userId', 'must be a member whose account is enabled')
      .throwIfAny();
    const change = {
      projectId: project.id,
      action: 'project.transfer',
      target: { type: 'user', id: input.userId },
    } as const;
    await this.deps.audit.record(input.caller, change, async () => {
      const moved = await this.deps.members.transfer(
        project.id,
        project.ownerId,
        input.userId,
        this.deps.clock.now(),
      );
      if (!moved) throw new NotFoundError('Member');
    });
    const after = await this.deps.projects.findAccess(project.id, null);
    if (!after) throw new NotFoundError('Project');
    return { project: after.project, role: 'admin' };
  }
}
