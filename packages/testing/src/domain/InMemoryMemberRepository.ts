import type { MemberRepository, MemberRole, ProjectMember } from '@browserdeck/domain';
import type { InMemoryProjectRepository, StoredMembership } from './InMemoryProjectRepository.ts';

/**
 * `MemberRepository` over the members an `InMemoryProjectRepository` keeps beside its projects, so
 * `findAccess` and `listForMember` see every change here at once; e-mails come from its users.
 */
export class InMemoryMemberRepository implements MemberRepository {
  private readonly projects: InMemoryProjectRepository;

  constructor(deps: { projects: InMemoryProjectRepository }) {
    this.projects = deps.projects;
  }

  async list(projectId: string): Promise<ProjectMember[]> {
    const members = this.projects.membershipsOf(projectId);
    if (!members) return [];
    const ordered = [...members.entries()].sort(
      ([aId, a], [bId, b]) =>
        Number(b.role === 'owner') - Number(a.role === 'owner') ||
        a.createdAt.getTime() - b.createdAt.getTime() ||
        (aId < bId ? -1 : aId > bId ? 1 : 0),
    );
    return Promise.all(ordered.map(([userId, member]) => this.member(projectId, userId, member)));
  }

  async find(projectId: string, userId: string): Promise<ProjectMember | null> {
    const member = this.projects.membershipsOf(projectId)?.get(userId);
    return member ? this.member(projectId, userId, member) : null;
  }

  async count(projectId: string): Promise<number> {
    return this.projects.membershipsOf(projectId)?.size ?? 0;
  }

  async add(member: {
    projectId: string;
    userId: string;
    role: MemberRole;
    now: Date;
  }): Promise<'added' | 'exists'> {
    const members = this.projects.membershipsOf(member.projectId);
    if (!members) throw new Error(`There is no project ${member.projectId} to add a member to.`);
    if (members.has(member.userId)) return 'exists';
    members.set(member.userId, { role: member.role, createdAt: member.now, updatedAt: member.now });
    return 'added';
  }

  async setRole(projectId: string, userId: string, role: MemberRole, now: Date): Promise<boolean> {
    const member = this.projects.membershipsOf(projectId)?.get(userId);
    if (!member || member.role === 'owner') return false;
    member.role = role;
    member.updatedAt = now;
    return true;
  }

  async remove(projectId: string, userId: string): Promise<boolean> {
    const members = this.projects.membershipsOf(projectId);
    if (members?.get(userId)?.role !== 'owner' && members?.has(userId)) return members.delete(userId);
    return false;
  }

  async transfer(projectId: string, fromUserId: string, toUserId: string, now: Date): Promise<boolean> {
    const members = this.projects.membershipsOf(projectId);
    const from = members?.get(fromUserId);
    const to = members?.get(toUserId);
    if (!from || !to || from.role !== 'owner' || fromUserId === toUserId) return false;
    // First the step that may fail (the new owner has a project with this slug), then the roles.
    this.projects.moveOwnership(projectId, toUserId);
    Object.assign(from, { role: 'admin', updatedAt: now });
    Object.assign(to, { role: 'owner', updatedAt: now });
    return true;
  }

  private async member(projectId: string, userId: string, member: StoredMembership): Promise<ProjectMember> {
    const { role, createdAt, updatedAt } = member;
    return { projectId, userId, email: await this.projects.emailOf(userId), role, createdAt, updatedAt };
  }
}
