import { Project } from '@browserdeck/domain';
import { sqlBoolean, sqlDate } from './NativeSql.ts';

/** A `projects` row as the drivers return it. */
export interface ProjectRow {
  id: string;
  owner_id: string;
  name: string;
  slug: string;
  archived: unknown;
  created_at: unknown;
  updated_at: unknown;
}

/** Every column of `projects`, in `ProjectRow`'s shape. */
export const SELECT_PROJECT =
  'select id, owner_id, name, slug, archived, created_at, updated_at from projects';

/** The domain `Project` a row stores. */
export function toProject(row: ProjectRow): Project {
  return Object.assign(Object.create(Project.prototype) as Project, {
    id: row.id,
    ownerId: row.owner_id,
    name: row.name,
    slug: row.slug,
    archived: sqlBoolean(row.archived),
    createdAt: sqlDate(row.created_at),
    updatedAt: sqlDate(row.updated_at),
  });
}
