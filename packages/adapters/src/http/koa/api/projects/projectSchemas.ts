import {
  PROJECT_NAME_MAX_LENGTH,
  PROJECT_NAME_MIN_LENGTH,
  PROJECT_ROLES,
  PROJECT_SLUG_MAX_LENGTH,
  PROJECT_SLUG_MIN_LENGTH,
  PROJECT_SLUG_PATTERN,
} from '@browserdeck/domain';
import { z } from 'zod';
import { queryBoolean, textRule, timestamp } from '../shared/commonSchemas.ts';

const name = z
  .string()
  .trim()
  .min(PROJECT_NAME_MIN_LENGTH, 'must not be empty')
  .max(PROJECT_NAME_MAX_LENGTH, `must be at most ${PROJECT_NAME_MAX_LENGTH} characters`)
  .check(textRule('name'))
  .meta({ description: 'Trimmed; no control characters.' });

const slug = z
  .string()
  .trim()
  .min(PROJECT_SLUG_MIN_LENGTH, 'must not be empty')
  .max(PROJECT_SLUG_MAX_LENGTH, `must be at most ${PROJECT_SLUG_MAX_LENGTH} characters`)
  .regex(PROJECT_SLUG_PATTERN, 'must be lower-case letters and digits in groups joined by single hyphens')
  .meta({ description: 'Unique among the owner’s projects, archived ones included.' });

/** `POST /v1/projects` body. */
export const CreateProjectBody = z.strictObject({
  name,
  slug: slug.optional().meta({ description: 'Derived from the name when absent.' }),
});

/** `PATCH /v1/projects/{project_id}` body: at least one field. */
export const UpdateProjectBody = z
  .strictObject({
    name: name.optional(),
    archived: z.boolean().optional().meta({ description: 'true archives, false restores.' }),
  })
  .refine((body) => body.name !== undefined || body.archived !== undefined, {
    message: 'give at least one of name, archived',
  });

/** `GET /v1/projects` query. */
export const ListProjectsQuery = z.object({
  archived: queryBoolean.optional().meta({ description: 'true lists archived projects; default false.' }),
});

/** A project as every project endpoint answers it. */
export const ProjectSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    slug: z.string(),
    archived: z.boolean(),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'Project' });

/** A project as `GET /v1/projects` lists it: with the caller's role in it (SPEC §17). */
export const ProjectListItemSchema = ProjectSchema.extend({
  role: z
    .enum(PROJECT_ROLES)
    .meta({ description: 'The caller’s role in the project (an API key: its own).' }),
}).meta({ id: 'ProjectListItem' });

/** `GET /v1/projects` response, newest first. */
export const ProjectListSchema = z.array(ProjectListItemSchema);
