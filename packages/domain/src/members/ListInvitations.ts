import type { Caller } from '../access/Caller.ts';
import { findProjectFor } from '../access/findProjectFor.ts';
import type { Invitation } from './Invitation.ts';
import type { MembersDeps } from './membersDeps.ts';

/** A project's open invitations, newest first (SPEC §17; admins). Their links are never shown again. */
export class ListInvitations {
  private readonly deps: Pick<MembersDeps, 'projects' | 'invitations' | 'clock'>;

  constructor(deps: Pick<MembersDeps, 'projects' | 'invitations' | 'clock'>) {
    this.deps = deps;
  }

  async execute(input: { caller: Caller; projectId: string }): Promise<Invitation[]> {
    const project = await findProjectFor(this.deps.projects, input.caller, input.projectId, 'admin');
    return this.deps.invitations.listOpen(project.id, this.deps.clock.now());
  }
}
