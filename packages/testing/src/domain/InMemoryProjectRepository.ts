import type {
  Project,
  ProjectAccessRecord,
  ProjectGrant,
  ProjectRepository,
  ProjectRole,
  UserRepository,
} from '@browserdeck/domain';
import { ConflictError } from '@browserdeck/domain';

/** One membership as `InMemoryProjectRepository` keeps it (a `project_members` row). */
export interface StoredMembership {
  role: ProjectRole;
  readonly createdAt: Date;
  updatedAt: Date;
}

/**
 * Projects in a Map, with their members beside them (the owner as `owner`, as `add` writes it);
 * stores copies so callers cannot change stored state without `update`. `InMemoryMemberRepository`
 * works on the same members (`new InMemoryMemberRepository({ projects })`). Given `users`, it reads
 * the owner's `disabledAt` (`findAccess`) and the members' e-mails from there, as a join would;
 * without, no owner is disabled and members have an empty e-mail.
 */
export class InMemoryProjectRepository implements ProjectRepository {
  private readonly projects = new Map<string, Project>();
  private readonly members = new Map<string, Map<string, StoredMembership>>();
  private readonly users: UserRepository | undefined;

  constructor(options: { users?: UserRepository | undefined } = {}) {
    this.users = options.users;
  }

  async add(project: Project): Promise<void> {
    this.refuseTakenSlug(project.ownerId, project.slug);
    this.projects.set(project.id, copy(project));
    const { createdAt } = project;
    this.members.set(
      project.id,
      new Map([[project.ownerId, { role: 'owner', createdAt, updatedAt: createdAt }]]),
    );
  }

  async update(project: Project): Promise<void> {
    const stored = this.projects.get(project.id);
    if (!stored || stored.ownerId !== project.ownerId) return;
    if (project.slug !== stored.slug) this.refuseTakenSlug(project.ownerId, project.slug, project.id);
    this.projects.set(project.id, copy(project));
  }

  async findAccess(projectId: string, userId: string | null): Promise<ProjectAccessRecord | null> {
    const project = this.projects.get(projectId);
    if (!project) return null;
    const role = userId === null ? null : (this.members.get(projectId)?.get(userId)?.role ?? null);
    const owner = await this.users?.findById(project.ownerId);
    return { project: copy(project), role, ownerDisabled: (owner?.disabledAt ?? null) !== null };
  }

  async listForMember(userId: string, filter: { archived: boolean }): Promise<ProjectGrant[]> {
    const grants: ProjectGrant[] = [];
    for (const project of this.all().reverse()) {
      const role = this.members.get(project.id)?.get(userId)?.role;
      if (role && project.archived === filter.archived) grants.push({ project, role });
    }
    return grants;
  }

  async listOwnedIds(ownerId: string): Promise<string[]> {
    return this.owned(ownerId).map((p) => p.id);
  }

  async countOwned(ownerId: string): Promise<number> {
    return this.owned(ownerId).length;
  }

  async findOldestOwned(ownerId: string): Promise<Project | null> {
    return this.owned(ownerId)[0] ?? null;
  }

  async delete(ownerId: string, projectId: string): Promise<boolean> {
    if (this.projects.get(projectId)?.ownerId !== ownerId) return false;
    this.members.delete(projectId);
    return this.projects.delete(projectId);
  }

  /** Every stored project (copies), oldest first. */
  all(): Project[] {
    return [...this.projects.values()]
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1))
      .map(copy);
  }

  /** For `InMemoryMemberRepository`: the project's members (the stored map itself); undefined when there is no such project. */
  membershipsOf(projectId: string): Map<string, StoredMembership> | undefined {
    return this.members.get(projectId);
  }

  /** For `InMemoryMemberRepository`: `userId`'s e-mail as the users hold it; empty when unknown. */
  async emailOf(userId: string): Promise<string> {
    return (await this.users?.findById(userId))?.email ?? '';
  }

  /**
   * For `InMemoryMemberRepository.transfer`: makes `toUserId` the project's owner (`projects.owner_id`);
   * `ConflictError('slug_taken')` when they own a project with its slug already, as the unique index would.
   */
  moveOwnership(projectId: string, toUserId: string): void {
    const project = this.projects.get(projectId);
    if (!project) return;
    this.refuseTakenSlug(toUserId, project.slug, projectId);
    this.projects.set(projectId, Object.assign(copy(project), { ownerId: toUserId }));
  }

  private refuseTakenSlug(ownerId: string, slug: string, exceptId?: string): void {
    for (const other of this.projects.values()) {
      if (other.id !== exceptId && other.ownerId === ownerId && other.slug === slug) {
        throw new ConflictError('slug_taken', `You already have a project with the slug "${slug}".`);
      }
    }
  }

  /** The owner's projects, oldest first. */
  private owned(ownerId: string): Project[] {
    return this.all().filter((p) => p.ownerId === ownerId);
  }
}

function copy(project: Project): Project {
  return Object.assign(Object.create(Object.getPrototypeOf(project)), project);
}
