import { authorizeProject } from '../access/authorizeProject.ts';
import type { Caller } from '../access/Caller.ts';
import { NotFoundError } from '../shared/DomainError.ts';
import { refuseOwnerChange } from './memberRules.ts';
import type { MembersDeps } from './membersDeps.ts';

/**
 * Removes a member (SPEC §17): an admin removes anyone but the owner; any member may leave. Their
 * live-view links and streams end at once, on every instance: a live view re-reads its holder's
 * membership (`liveViewCredentialHolds`).
 */
export class RemoveMember {
  private readonly deps: Pick<MembersDeps, 'projects' | 'members' | 'audit'>;

  constructor(deps: Pick<MembersDeps, 'projects' | 'members' | 'audit'>) {
    this.deps = deps;
  }

  async execute(input: { caller: Caller; projectId: string; userId: string }): Promise<void> {
    const leaving = input.caller.kind === 'user' && input.caller.userId === input.userId;
    const { project } = await authorizeProject(
      this.deps.projects,
      input.caller,
      input.projectId,
      leaving ? 'viewer' : 'admin',
    );
    refuseOwnerChange(project, input.userId);
    const change = {
      projectId: project.id,
      action: 'member.remove',
      target: { type: 'user', id: input.userId },
    } as const;
    await this.deps.audit.record(input.caller, change, async () => {
      if (!(await this.deps.members.remove(project.id, input.userId))) throw new NotFoundError('Member');
    });
  }
}
