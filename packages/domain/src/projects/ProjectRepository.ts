import type { ProjectAccessRecord, ProjectGrant } from '../access/ProjectGrant.ts';
import type { Project } from './Project.ts';

/**
 * Where projects are kept, with who may reach them: every project has its owner as its `owner`
 * member, and other members beside (SPEC §17; `MemberRepository` changes them). Reads are by
 * membership: a project the user is no member of does not exist for them.
 */
export interface ProjectRepository {
  /**
   * Stores a new project and its owner as its `owner` member, in one transaction; throws
   * `ConflictError('slug_taken')` if the owner already owns a project with its slug.
   */
  add(project: Project): Promise<void>;
  /** Stores changes to an existing project (name, slug, archived). */
  update(project: Project): Promise<void>;
  /**
   * The one read behind a call on a project (`authorizeProject`): the project, the role `userId`
   * holds in it (null when they are no member, or `userId` is null), and whether its owner's
   * account is disabled. One statement; null when there is no such project.
   */
  findAccess(projectId: string, userId: string | null): Promise<ProjectAccessRecord | null>;
  /** The projects `userId` is a member of with the given archived flag, newest first, with the role. */
  listForMember(userId: string, filter: { archived: boolean }): Promise<ProjectGrant[]>;
  /** The ids of every project `ownerId` owns, archived included. */
  listOwnedIds(ownerId: string): Promise<string[]>;
  /** How many projects the owner has, archived ones included (one indexed count, no rows loaded). */
  countOwned(ownerId: string): Promise<number>;
  /** The owner's oldest project, archived or not. */
  findOldestOwned(ownerId: string): Promise<Project | null>;
  /** Removes the project with everything it owns; false if there was none. */
  delete(ownerId: string, projectId: string): Promise<boolean>;
}
