import type { MemberRole } from '../access/projectRoles.ts';
import type { ProjectMember } from './ProjectMember.ts';

/**
 * A project's members beside its owner (SPEC §17). The owner's own membership is written with the
 * project (`ProjectRepository.add`) and changes only by `transfer`.
 */
export interface MemberRepository {
  /** The project's members, the owner first, then oldest first. */
  list(projectId: string): Promise<ProjectMember[]>;
  /** One member; null when `userId` is no member of the project. */
  find(projectId: string, userId: string): Promise<ProjectMember | null>;
  /** How many members the project has, the owner included. */
  count(projectId: string): Promise<number>;
  /** Adds `userId` with `role`; `exists` (nothing changed) when they are a member already. */
  add(member: {
    projectId: string;
    userId: string;
    role: MemberRole;
    now: Date;
  }): Promise<'added' | 'exists'>;
  /** Sets a member's role; false when they are no member or are the owner (nothing changed). */
  setRole(projectId: string, userId: string, role: MemberRole, now: Date): Promise<boolean>;
  /** Removes a member; false when they are no member or are the owner (nothing changed). */
  remove(projectId: string, userId: string): Promise<boolean>;
  /**
   * Makes member `toUserId` the project's owner and its owner `fromUserId` an `admin`, and moves
   * `projects.owner_id`, in one transaction. False (nothing changed) unless `fromUserId` owns the
   * project and `toUserId` is a member of it.
   */
  transfer(projectId: string, fromUserId: string, toUserId: string, now: Date): Promise<boolean>;
}
