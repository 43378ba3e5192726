import { type AnyRoute, defineRoute } from '../../kernel/routing/RouteDefinition.ts';
import { emptyBody, projectIdParams } from '../shared/commonSchemas.ts';
import type { UseCasesOf } from '../shared/UseCasesOf.ts';
import { presentProject } from './presentProject.ts';
import {
  CreateProjectBody,
  ListProjectsQuery,
  ProjectListSchema,
  ProjectSchema,
  UpdateProjectBody,
} from './projectSchemas.ts';

/** The use cases behind `/v1/projects`. */
export type ProjectRouteDeps = UseCasesOf<
  'projects',
  'create' | 'list' | 'get' | 'update' | 'archive' | 'delete'
>;

/** These routes' OpenAPI tag and what it groups. */
export const PROJECTS_TAG = {
  name: 'Projects',
  description:
    'The projects a user is a member of, with a role each: the scope of sessions and agents. A project the caller is no member of is a 404.',
};
const TAG = PROJECTS_TAG.name;
const one = { description: 'The project.', schema: ProjectSchema };

/** `/v1/projects`: the caller's projects. Another user's project is a 404 (http-api.md §4). */
export function projectRoutes(deps: ProjectRouteDeps): AnyRoute[] {
  return [
    defineRoute({
      method: 'POST',
      path: '/v1/projects',
      operationId: 'createProject',
      summary: 'Create a project',
      description: 'Without `slug` the slug is derived from the name, suffixed -2, -3 … if taken.',
      tag: TAG,
      auth: 'user',
      body: CreateProjectBody,
      responses: { 201: { description: 'The new project.', schema: ProjectSchema } },
      errors: ['slug_taken', 'project_limit_reached'],
      handle: async ({ caller, body }) => ({
        status: 201,
        body: presentProject(await deps.create.execute({ caller, ...body })),
      }),
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/projects',
      operationId: 'listProjects',
      summary: 'List projects, newest first',
      description:
        'Every project the caller is a member of, with its role: the active ones by default; `archived=true` lists the archived ones instead.',
      tag: TAG,
      auth: 'userOrKey',
      query: ListProjectsQuery,
      responses: { 200: { description: 'The projects.', schema: ProjectListSchema } },
      handle: async ({ caller, query }) => {
        const grants = await deps.list.execute({ caller, archived: query.archived });
        return {
          status: 200,
          body: grants.map(({ project, role }) => ({ ...presentProject(project), role })),
        };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/projects/{project_id}',
      operationId: 'getProject',
      role: 'viewer',
      summary: 'Read a project',
      description: 'Archived projects can be read too. Another user’s project is a 404, like a missing one.',
      tag: TAG,
      auth: 'userOrKey',
      params: projectIdParams,
      responses: { 200: one },
      errors: ['not_found'],
      handle: async ({ caller, params }) => ({
        status: 200,
        body: presentProject(await deps.get.execute({ caller, projectId: params.project_id })),
      }),
    }),
    defineRoute({
      method: 'PATCH',
      path: '/v1/projects/{project_id}',
      operationId: 'updateProject',
      role: 'admin',
      summary: 'Rename, archive or restore a project',
      description: 'Give at least one of `name`, `archived`. Renaming keeps the slug.',
      tag: TAG,
      auth: 'user',
      params: projectIdParams,
      body: UpdateProjectBody,
      responses: { 200: one },
      errors: ['not_found'],
      handle: async ({ caller, params, body }) => ({
        status: 200,
        body: presentProject(
          await deps.update.execute({
            caller,
            projectId: params.project_id,
            ...body,
          }),
        ),
      }),
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/projects/{project_id}:archive',
      operationId: 'archiveProject',
      role: 'admin',
      summary: 'Archive a project (soft delete)',
      description: 'Idempotent: archiving an archived project returns it unchanged.',
      tag: TAG,
      auth: 'user',
      params: projectIdParams,
      body: emptyBody,
      responses: { 200: one },
      errors: ['not_found'],
      handle: async ({ caller, params }) => ({
        status: 200,
        body: presentProject(await deps.archive.execute({ caller, projectId: params.project_id })),
      }),
    }),
    defineRoute({
      method: 'DELETE',
      path: '/v1/projects/{project_id}',
      operationId: 'deleteProject',
      role: 'owner',
      summary: 'Delete a project with its sessions and agents (hard delete)',
      description:
        'Sessions still active at the provider are released first (best effort: a failed release is ' +
        'logged and does not block the delete). Archive the project instead to keep its records.',
      tag: TAG,
      auth: 'user',
      params: projectIdParams,
      responses: { 204: { description: 'Deleted; no body.' } },
      errors: ['not_found'],
      handle: async ({ caller, params }) => {
        await deps.delete.execute({ caller, projectId: params.project_id });
        return { status: 204 };
      },
    }),
  ];
}
