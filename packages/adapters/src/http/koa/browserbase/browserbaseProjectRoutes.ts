import type { Project } from '@browserdeck/domain';
import type { z } from 'zod';
import { isoTimestamp } from '../api/shared/isoTimestamp.ts';
import type { UseCasesOf } from '../api/shared/UseCasesOf.ts';
import { type AnyRoute, defineRoute } from '../kernel/routing/RouteDefinition.ts';
import {
  BrowserbaseProjectListSchema,
  BrowserbaseProjectSchema,
  BrowserbaseUsageSchema,
} from './browserbaseResponseSchemas.ts';
import { BROWSERBASE_ROUTE, isBrowserbaseClient } from './browserbaseRoute.ts';
import { browserbaseIdParams } from './browserbaseSchemas.ts';
import { keyProject } from './requireApiKey.ts';

/** The use cases behind Browserbase's `/v1/projects`. */
export type BrowserbaseProjectRouteDeps = UseCasesOf<'projects', 'list' | 'get'> &
  UseCasesOf<'sessions', 'stats'>;

/** What Browserbase's project shape needs beyond the project: the provider's limits. */
export interface BrowserbaseProjectSettings {
  /** Sessions a project may run at once, when the provider says (`null` when it sets no limit). */
  concurrency: number | null;
}

/** The session timeout a project's sessions get when the request names none (http-api.md §5). */
const DEFAULT_TIMEOUT_SEC = 300;

function present(
  project: Project,
  settings: BrowserbaseProjectSettings,
): z.input<typeof BrowserbaseProjectSchema> {
  return {
    id: project.id,
    name: project.name,
    ownerId: project.ownerId,
    createdAt: isoTimestamp(project.createdAt),
    updatedAt: isoTimestamp(project.updatedAt),
    defaultTimeout: DEFAULT_TIMEOUT_SEC,
    concurrency: settings.concurrency,
  };
}

/**
 * Browserbase's project endpoints: the key's own project only. `GET /v1/projects` and
 * `/v1/projects/{id}` share their paths with http-api.md §4; a request with `X-BB-API-Key` and no
 * `Authorization` (a Browserbase client) is answered here, in Browserbase's shapes.
 */
export function browserbaseProjectRoutes(
  deps: BrowserbaseProjectRouteDeps,
  settings: BrowserbaseProjectSettings,
): AnyRoute[] {
  const scope = { ...BROWSERBASE_ROUTE, when: isBrowserbaseClient };
  return [
    defineRoute({
      ...scope,
      method: 'GET',
      path: '/v1/projects',
      operationId: 'browserbaseListProjects',
      summary: 'The key’s project (Browserbase)',
      responses: { 200: { description: 'The key’s project, alone.', schema: BrowserbaseProjectListSchema } },
      handle: async ({ caller }) => {
        keyProject(caller);
        const projects = await deps.list.execute({ caller });
        return { status: 200, body: projects.map(({ project }) => present(project, settings)) };
      },
    }),
    defineRoute({
      ...scope,
      method: 'GET',
      path: '/v1/projects/{id}',
      operationId: 'browserbaseGetProject',
      role: 'viewer',
      summary: 'A project (Browserbase)',
      params: browserbaseIdParams,
      responses: { 200: { description: 'The project.', schema: BrowserbaseProjectSchema } },
      errors: ['not_found'],
      handle: async ({ caller, params }) => {
        const project = await deps.get.execute({ caller, projectId: keyProject(caller, params.id) });
        return { status: 200, body: present(project, settings) };
      },
    }),
    defineRoute({
      ...scope,
      method: 'GET',
      path: '/v1/projects/{id}/usage',
      operationId: 'browserbaseProjectUsage',
      role: 'viewer',
      summary: 'A project’s usage (Browserbase)',
      params: browserbaseIdParams,
      responses: {
        200: {
          description:
            'Browser minutes used (rounded up), and the proxy bytes in and out of all the project’s sessions.',
          schema: BrowserbaseUsageSchema,
        },
      },
      errors: ['not_found'],
      handle: async ({ caller, params }) => {
        const stats = await deps.stats.execute({ caller, projectId: keyProject(caller, params.id) });
        return {
          status: 200,
          body: {
            browserMinutes: Math.ceil(stats.totalBrowserSec / 60),
            proxyBytes: stats.totalProxyBytes,
          },
        };
      },
    }),
  ];
}
