import type { Caller } from '../access/Caller.ts';
import { findProjectFor } from '../access/findProjectFor.ts';
import { NotFoundError } from '../shared/DomainError.ts';
import type { MembersDeps } from './membersDeps.ts';

/** Revokes one of a project's open invitations (SPEC §17; admins): its link stops working. */
export class RevokeInvitation {
  private readonly deps: Pick<MembersDeps, 'projects' | 'invitations' | 'audit' | 'clock'>;

  constructor(deps: Pick<MembersDeps, 'projects' | 'invitations' | 'audit' | 'clock'>) {
    this.deps = deps;
  }

  async execute(input: { caller: Caller; projectId: string; invitationId: string }): Promise<void> {
    const project = await findProjectFor(this.deps.projects, input.caller, input.projectId, 'admin');
    const change = {
      projectId: project.id,
      action: 'invitation.revoke',
      target: { type: 'invitation', id: input.invitationId },
    } as const;
    await this.deps.audit.record(input.caller, change, async () => {
      const revoked = await this.deps.invitations.revoke(
        project.id,
        input.invitationId,
        this.deps.clock.now(),
      );
      if (!revoked) throw new NotFoundError('Invitation');
    });
  }
}
