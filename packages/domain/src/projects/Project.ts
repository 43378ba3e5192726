import type { EntityState } from '../shared/EntityState.ts';
import { writable } from '../shared/writable.ts';
import { checkProjectName, checkProjectSlug } from './projectRules.ts';

/** A project's stored fields: what `Project.restore` takes. */
export type ProjectState = EntityState<Project>;

/** A user's project: the unit that owns sessions and agents. Archived projects are read-only for new work. */
export class Project {
  readonly id!: string;
  readonly ownerId!: string;
  readonly name!: string;
  readonly slug!: string;
  readonly archived!: boolean;
  readonly createdAt!: Date;
  readonly updatedAt!: Date;

  private constructor() {}

  /** A new, active project. `name` is trimmed; both name and slug are validated. */
  static create(props: { id: string; ownerId: string; name: string; slug: string; now: Date }): Project {
    const name = props.name.trim();
    checkProjectName(name);
    checkProjectSlug(props.slug);
    return Object.assign(new Project(), {
      id: props.id,
      ownerId: props.ownerId,
      name,
      slug: props.slug,
      archived: false,
      createdAt: props.now,
      updatedAt: props.now,
    });
  }

  /**
   * For repositories: the project `state` holds, as it was stored. No validation (a stored row was
   * valid when written); `state`'s fields become the instance's. Not to be confused with the
   * instance method `restore(now)`, which un-archives.
   */
  static restore(state: ProjectState): Project {
    return Object.assign(new Project(), state);
  }

  /** Changes the name; the slug stays as it was. */
  rename(name: string, now: Date): void {
    const trimmed = name.trim();
    checkProjectName(trimmed);
    if (trimmed === this.name) return;
    writable(this).name = trimmed;
    writable(this).updatedAt = now;
  }

  /** Soft-deletes the project. Idempotent. */
  archive(now: Date): void {
    if (this.archived) return;
    writable(this).archived = true;
    writable(this).updatedAt = now;
  }

  /** Brings an archived project back. Idempotent. */
  restore(now: Date): void {
    if (!this.archived) return;
    writable(this).archived = false;
    writable(this).updatedAt = now;
  }
}
