import type { Project } from '@browserdeck/domain';
import type { z } from 'zod';
import { isoTimestamp } from '../shared/isoTimestamp.ts';
import type { ProjectSchema } from './projectSchemas.ts';

/** The JSON of a project (http-api.md §4). */
export type ProjectJson = z.output<typeof ProjectSchema>;

/** A project as the API shows it: snake_case, ISO 8601 UTC timestamps with milliseconds. */
export function presentProject(project: Project): ProjectJson {
  return {
    id: project.id,
    name: project.name,
    slug: project.slug,
    archived: project.archived,
    created_at: isoTimestamp(project.createdAt),
    updated_at: isoTimestamp(project.updatedAt),
  };
}
