import { NotFoundError, UnsupportedOptionError } from '@browserdeck/domain';
import type { RunRouteDeps } from '../api/runs/runRoutes.ts';
import { type AnyRoute, defineRoute } from '../kernel/routing/RouteDefinition.ts';
import { BrowserbaseInvocationSchema } from './browserbaseResponseSchemas.ts';
import { BROWSERBASE_ROUTE } from './browserbaseRoute.ts';
import { BrowserbaseInvokeBody, browserbaseIdParams } from './browserbaseSchemas.ts';
import { presentBrowserbaseInvocation } from './presentBrowserbaseInvocation.ts';
import { keyProject } from './requireApiKey.ts';

/** The use cases behind Browserbase's Functions: §11's agent runs. */
export type BrowserbaseFunctionRouteDeps = Pick<RunRouteDeps, 'startAgentRun' | 'get'>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An id from the path; anything that is not one of ours names nothing (404, as Browserbase answers). */
function idOf(id: string, what: string): string {
  if (!UUID.test(id)) throw new NotFoundError(what);
  return id.toLowerCase();
}

const NO_SECRETS =
  'Function secrets are not supported: a function here is an agent, whose variables are its envVars ' +
  '(PUT /v1/{provider}/projects/{project_id}/agents/{agent_id}).';

/**
 * Browserbase's Functions over http-api.md §11: a function is an agent of the key's project and an
 * invocation is an agent run. Invoke starts the run (202, as Browserbase answers: it has not ended),
 * the invocation read is the run in Browserbase's shape. Secrets attached to a function are refused
 * (400): an agent's envVars hold its variables.
 */
export function browserbaseFunctionRoutes(deps: BrowserbaseFunctionRouteDeps): AnyRoute[] {
  const refuseSecrets = async ({ caller }: { caller: Parameters<typeof keyProject>[0] }) => {
    keyProject(caller);
    throw new UnsupportedOptionError('secretId', NO_SECRETS);
  };
  const secrets = { 400: { description: 'Always: function secrets are not supported.' } };
  return [
    defineRoute({
      ...BROWSERBASE_ROUTE,
      method: 'POST',
      path: '/v1/functions/{id}/invoke',
      operationId: 'browserbaseInvokeFunction',
      role: 'developer',
      summary: 'Invoke a function (Browserbase): start an agent run',
      params: browserbaseIdParams,
      body: BrowserbaseInvokeBody,
      responses: { 202: { description: 'The invocation, PENDING.', schema: BrowserbaseInvocationSchema } },
      errors: ['not_found', 'project_archived', 'agent_inactive', 'script_empty', 'run_queue_full'],
      handle: async ({ caller, params, body }) => {
        const options = body.sessionCreateParams ?? {};
        const projectId = keyProject(caller, options.projectId);
        const { run } = await deps.startAgentRun.execute({
          caller,
          projectId,
          agentId: idOf(params.id, 'Function'),
          request: { input: body.params ?? {}, timeoutSec: options.timeout },
        });
        return { status: 202, body: presentBrowserbaseInvocation(run) };
      },
    }),
    defineRoute({
      ...BROWSERBASE_ROUTE,
      method: 'GET',
      path: '/v1/functions/invocations/{id}',
      operationId: 'browserbaseGetInvocation',
      role: 'viewer',
      summary: 'Read an invocation (Browserbase): an agent run',
      params: browserbaseIdParams,
      responses: { 200: { description: 'The invocation.', schema: BrowserbaseInvocationSchema } },
      errors: ['not_found'],
      handle: async ({ caller, params }) => {
        const run = await deps.get.execute({
          caller,
          projectId: keyProject(caller),
          runId: idOf(params.id, 'Invocation'),
        });
        // Only agent runs are invocations; a run on a session is not one.
        if (run.agentId === null) throw new NotFoundError('Invocation');
        return { status: 200, body: presentBrowserbaseInvocation(run) };
      },
    }),
    defineRoute({
      ...BROWSERBASE_ROUTE,
      method: 'GET',
      path: '/v1/functions/{id}/secrets',
      operationId: 'browserbaseListFunctionSecrets',
      role: 'viewer',
      summary: 'List a function’s secrets (Browserbase): refused',
      params: browserbaseIdParams,
      responses: secrets,
      errors: ['unsupported_option'],
      handle: refuseSecrets,
    }),
    defineRoute({
      ...BROWSERBASE_ROUTE,
      method: 'POST',
      path: '/v1/functions/{id}/secrets',
      operationId: 'browserbaseAttachFunctionSecret',
      role: 'developer',
      summary: 'Attach a secret to a function (Browserbase): refused',
      params: browserbaseIdParams,
      responses: secrets,
      errors: ['unsupported_option'],
      handle: refuseSecrets,
    }),
    defineRoute({
      ...BROWSERBASE_ROUTE,
      method: 'DELETE',
      path: '/v1/functions/{id}/secrets/{secret_id}',
      operationId: 'browserbaseDetachFunctionSecret',
      role: 'developer',
      summary: 'Detach a secret from a function (Browserbase): refused',
      params: browserbaseIdParams.extend({ secret_id: browserbaseIdParams.shape.id }),
      responses: secrets,
      errors: ['unsupported_option'],
      handle: refuseSecrets,
    }),
  ];
}
