import type { Project } from './Project.ts';

/** Where projects are kept. Every read is scoped by owner: another user's project does not exist. */
export interface ProjectRepository {
  /** Stores a new project; throws `ConflictError('slug_taken')` if the owner already has its slug. */
  add(project: Project): Promise<void>;
  /** Stores changes to an existing project. */
  update(project: Project): Promise<void>;
  findOwned(ownerId: string, projectId: string): Promise<Project | null>;
  /** The owner's projects with the given archived flag, newest first. */
  listOwned(ownerId: string, filter: { archived: boolean }): Promise<Project[]>;
  /** How many projects the owner has, archived ones included (one indexed count, no rows loaded). */
  countOwned(ownerId: string): Promise<number>;
  /** The owner's oldest project, archived or not. */
  findOldestOwned(ownerId: string): Promise<Project | null>;
  /** Removes the project with everything it owns; false if there was none. */
  delete(ownerId: string, projectId: string): Promise<boolean>;
}
