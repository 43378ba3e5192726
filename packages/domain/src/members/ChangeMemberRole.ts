import type { Caller } from '../access/Caller.ts';
import { findProjectFor } from '../access/findProjectFor.ts';
import { NotFoundError } from '../shared/DomainError.ts';
import { checkMemberRole, refuseOwnerChange } from './memberRules.ts';
import type { MembersDeps } from './membersDeps.ts';
import type { ProjectMember } from './ProjectMember.ts';

/** Gives a member another role (SPEC §17; admins). The owner's role changes only by transfer. */
export class ChangeMemberRole {
  private readonly deps: Pick<MembersDeps, 'projects' | 'members' | 'audit' | 'clock'>;

  constructor(deps: Pick<MembersDeps, 'projects' | 'members' | 'audit' | 'clock'>) {
    this.deps = deps;
  }

  async execute(input: {
    caller: Caller;
    projectId: string;
    userId: string;
    role: string;
  }): Promise<ProjectMember> {
    const project = await findProjectFor(this.deps.projects, input.caller, input.projectId, 'admin');
    const role = checkMemberRole(input.role);
    refuseOwnerChange(project, input.userId);
    const { members } = this.deps;
    const change = {
      projectId: project.id,
      action: 'member.role_change',
      target: { type: 'user', id: input.userId },
    } as const;
    await this.deps.audit.record(input.caller, change, async () => {
      const changed = await members.setRole(project.id, input.userId, role, this.deps.clock.now());
      if (!changed) throw new NotFoundError('Member');
    });
    const member = await members.find(project.id, input.userId);
    if (!member) throw new NotFoundError('Member');
    return member;
  }
}
