import type { Caller } from '../access/Caller.ts';
import { findProjectFor } from '../access/findProjectFor.ts';
import type { MembersDeps } from './membersDeps.ts';
import type { ProjectMember } from './ProjectMember.ts';

/** A project's members, the owner first (SPEC §17); any member may read them. */
export class ListMembers {
  private readonly deps: Pick<MembersDeps, 'projects' | 'members'>;

  constructor(deps: Pick<MembersDeps, 'projects' | 'members'>) {
    this.deps = deps;
  }

  async execute(input: { caller: Caller; projectId: string }): Promise<ProjectMember[]> {
    const project = await findProjectFor(this.deps.projects, input.caller, input.projectId, 'viewer');
    return this.deps.members.list(project.id);
  }
}
