import { type AnyRoute, defineRoute } from '../../kernel/routing/RouteDefinition.ts';
import { providerProjectParams } from '../shared/commonSchemas.ts';
import { PROVIDER_PROJECT_PATH, providerPathValues } from '../shared/providerScope.ts';
import type { UseCasesOf } from '../shared/UseCasesOf.ts';
import {
  AgentListSchema,
  AgentSchema,
  agentParams,
  CreateAgentBody,
  ListAgentsQuery,
  UpdateAgentBody,
} from './agentSchemas.ts';
import { presentAgent } from './presentAgent.ts';

/** The use cases behind `/v1/{provider}/projects/{project_id}/agents`. */
export type AgentRouteDeps = UseCasesOf<'agents', 'create' | 'list' | 'get' | 'update' | 'delete'>;

/** These routes' OpenAPI tag and what it groups. */
export const AGENTS_TAG = {
  name: 'Agents',
  description:
    'Stored session defaults (script, environment, region, timeout) that a session can start from.',
};
const TAG = AGENTS_TAG.name;
const BASE = `${PROVIDER_PROJECT_PATH}/agents`;
const one = { description: 'The agent.', schema: AgentSchema };

/**
 * `/v1/{provider}/projects/{project_id}/agents`: stored session recipes of one of the caller's
 * projects (http-api.md §6). `{provider}` is `providerName` or `cloudbrowser`; anything else is a 404.
 */
export function agentRoutes(deps: AgentRouteDeps, providerName: string): AnyRoute[] {
  const scope = { tag: TAG, auth: 'userOrKey' as const, pathValues: providerPathValues(providerName) };
  return [
    defineRoute({
      ...scope,
      method: 'POST',
      path: BASE,
      operationId: 'createAgent',
      role: 'developer',
      summary: 'Create an agent',
      description:
        'An agent holds the defaults of the sessions started with its `agentId`. `name` is required ' +
        'and unique within the project; `envVars` are encrypted at rest and never logged.',
      params: providerProjectParams,
      body: CreateAgentBody,
      responses: { 201: { description: 'The new agent.', schema: AgentSchema } },
      errors: ['not_found', 'project_archived', 'agent_name_taken'],
      handle: async ({ caller, params, body }) => ({
        status: 201,
        body: presentAgent(
          await deps.create.execute({
            caller,
            projectId: params.project_id,
            agent: body,
          }),
        ),
      }),
    }),
    defineRoute({
      ...scope,
      method: 'GET',
      path: BASE,
      operationId: 'listAgents',
      role: 'viewer',
      summary: 'List agents, newest first',
      description: 'All agents by default; `active_only=true` leaves the inactive ones out.',
      params: providerProjectParams,
      query: ListAgentsQuery,
      responses: { 200: { description: 'The agents.', schema: AgentListSchema } },
      errors: ['not_found'],
      handle: async ({ caller, params, query }) => {
        const agents = await deps.list.execute({
          caller,
          projectId: params.project_id,
          activeOnly: query.active_only,
        });
        return { status: 200, body: agents.map(presentAgent) };
      },
    }),
    defineRoute({
      ...scope,
      method: 'GET',
      path: `${BASE}/{agent_id}`,
      operationId: 'getAgent',
      role: 'viewer',
      summary: 'Read an agent',
      description: 'An agent of another project or another user is a 404, like a missing one.',
      params: agentParams,
      responses: { 200: one },
      errors: ['not_found'],
      handle: async ({ caller, params }) => ({
        status: 200,
        body: presentAgent(
          await deps.get.execute({
            caller,
            projectId: params.project_id,
            agentId: params.agent_id,
          }),
        ),
      }),
    }),
    defineRoute({
      ...scope,
      method: 'PUT',
      path: `${BASE}/{agent_id}`,
      operationId: 'updateAgent',
      role: 'developer',
      summary: 'Change some of an agent’s fields',
      description: 'A partial update: give any non-empty subset of the create fields.',
      params: agentParams,
      body: UpdateAgentBody,
      responses: { 200: one },
      errors: ['not_found', 'project_archived', 'agent_name_taken'],
      handle: async ({ caller, params, body }) => ({
        status: 200,
        body: presentAgent(
          await deps.update.execute({
            caller,
            projectId: params.project_id,
            agentId: params.agent_id,
            changes: body,
          }),
        ),
      }),
    }),
    defineRoute({
      ...scope,
      method: 'DELETE',
      path: `${BASE}/{agent_id}`,
      operationId: 'deleteAgent',
      role: 'developer',
      summary: 'Delete an agent',
      description: 'Sessions that ran the agent keep their `agentId`.',
      params: agentParams,
      responses: { 204: { description: 'Deleted; no body.' } },
      errors: ['not_found'],
      handle: async ({ caller, params }) => {
        await deps.delete.execute({
          caller,
          projectId: params.project_id,
          agentId: params.agent_id,
        });
        return { status: 204 };
      },
    }),
  ];
}
