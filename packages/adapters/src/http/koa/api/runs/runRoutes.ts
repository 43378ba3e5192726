import { type Caller, RUN_WAIT_MAX_SEC, type Run } from '@browserdeck/domain';
import { type AnyRoute, defineRoute } from '../../kernel/routing/RouteDefinition.ts';
import { agentParams } from '../agents/agentSchemas.ts';
import { IdempotencyHeaders, sessionParams } from '../sessions/sessionSchemas.ts';
import { emptyBody, providerProjectParams } from '../shared/commonSchemas.ts';
import { PROVIDER_PROJECT_PATH, providerPathValues } from '../shared/providerScope.ts';
import type { UseCasesOf } from '../shared/UseCasesOf.ts';
import { presentRun, presentRunLogLine } from './presentRun.ts';
import { type RunLogStreamRouteDeps, runLogStreamRoute } from './runLogStreamRoute.ts';
import {
  GetRunQuery,
  ListRunsQuery,
  RunLogPageSchema,
  RunLogsQuery,
  RunPageSchema,
  RunSchema,
  runParams,
  StartAgentRunBody,
  StartSessionRunBody,
} from './runSchemas.ts';

/** The use cases behind `/v1/{provider}/projects/{project_id}/…/runs` (http-api.md §11). */
export type RunRouteDeps = RunLogStreamRouteDeps &
  UseCasesOf<'runs', 'startAgentRun' | 'startSessionRun' | 'get' | 'list' | 'cancel' | 'logs'>;

/** How the run routes behave beyond their use cases. */
export interface RunRouteOptions {
  /** Milliseconds between heartbeat comments of a log stream; default 15 s. */
  heartbeatMs?: number | undefined;
}

/** These routes' OpenAPI tag and what it groups. */
export const RUNS_TAG = {
  name: 'Runs',
  description:
    'Executions of an agent’s script (on a session of its own) or of a script on a live session: ' +
    'start, wait for, read, list, cancel, and their logs, paged or streamed (Server-Sent Events).',
};
const TAG = RUNS_TAG.name;
const BASE = `${PROVIDER_PROJECT_PATH}/runs`;
/** A `wait` may hold the answer this much longer than the request cut-off. */
const WAIT_MS = RUN_WAIT_MAX_SEC * 1000;

const created = {
  description: 'The new run (on a replay: the run the first request created).',
  schema: RunSchema,
  headers: {
    Location: { description: 'The run’s URL.' },
    'Idempotent-Replayed': { description: '`true` when this answer is a replay.' },
  },
};

/**
 * `/v1/{provider}/projects/{project_id}/…/runs`: runs of an agent or on a live session of one of the
 * caller's projects (http-api.md §11). `{provider}` is `providerName` or `cloudbrowser`.
 */
export function runRoutes(
  deps: RunRouteDeps,
  providerName: string,
  options: RunRouteOptions = {},
): AnyRoute[] {
  const scope = { tag: TAG, auth: 'userOrKey' as const, pathValues: providerPathValues(providerName) };
  /** The run as it is once terminal or after `wait` seconds (at once for 0). */
  const waited = async (caller: Caller, projectId: string, run: Run, wait: number | undefined) =>
    wait && !run.isTerminal
      ? // A create is answered whatever the account's waiters: at once when it holds its most.
        deps.get.execute({ caller, projectId, runId: run.id, waitSec: wait, whenWaitersFull: 'answer' })
      : run;
  const answerCreated = async (
    request: { caller: Caller; mountPrefix: string; params: { provider: string; project_id: string } },
    started: { run: Run; replayed: boolean },
    wait: number | undefined,
  ) => {
    const { caller, mountPrefix, params } = request;
    const run = await waited(caller, params.project_id, started.run, wait);
    const location = `${mountPrefix}/v1/${params.provider}/projects/${params.project_id}/runs/${run.id}`;
    return {
      status: 201 as const,
      body: presentRun(run),
      headers: { Location: location, ...(started.replayed ? { 'Idempotent-Replayed': 'true' } : {}) },
    };
  };
  return [
    defineRoute({
      ...scope,
      method: 'POST',
      path: `${PROVIDER_PROJECT_PATH}/agents/{agent_id}/runs`,
      operationId: 'startAgentRun',
      role: 'developer',
      summary: 'Run an agent’s script on a session of its own',
      description:
        'Queues a run of the agent’s script (fixed now: editing the agent later does not change it). ' +
        'The run creates a session from the agent’s settings (`env` merged over its `envVars`), runs ' +
        'the script against it, and releases it when the run ends, whatever the outcome. With `wait` ' +
        'the answer is held until the run is terminal or the wait is over.',
      params: agentParams,
      headers: IdempotencyHeaders,
      body: StartAgentRunBody,
      extraTimeMs: WAIT_MS,
      responses: { 201: created },
      errors: [
        'not_found',
        'project_archived',
        'agent_inactive',
        'script_empty',
        'idempotency_key_reused',
        'run_queue_full',
      ],
      handle: async (request) => {
        const { caller, params, headers, body } = request;
        const { wait, ...runRequest } = body;
        const started = await deps.startAgentRun.execute({
          caller,
          projectId: params.project_id,
          agentId: params.agent_id,
          request: runRequest,
          idempotencyKey: headers['Idempotency-Key'],
        });
        return answerCreated(request, started, wait);
      },
    }),
    defineRoute({
      ...scope,
      method: 'POST',
      path: `${PROVIDER_PROJECT_PATH}/sessions/{session_id}/runs`,
      operationId: 'startSessionRun',
      role: 'developer',
      summary: 'Run a script on a live session',
      description:
        'Queues a run of `script` (default: the session’s own) against the session, which stays open ' +
        'afterwards. With `wait` the answer is held until the run is terminal or the wait is over.',
      params: sessionParams,
      headers: IdempotencyHeaders,
      body: StartSessionRunBody,
      extraTimeMs: WAIT_MS,
      responses: { 201: created },
      errors: [
        'not_found',
        'project_archived',
        'session_ended',
        'script_empty',
        'idempotency_key_reused',
        'run_queue_full',
      ],
      handle: async (request) => {
        const { caller, params, headers, body } = request;
        const { wait, ...runRequest } = body;
        const started = await deps.startSessionRun.execute({
          caller,
          projectId: params.project_id,
          sessionId: params.session_id,
          request: runRequest,
          idempotencyKey: headers['Idempotency-Key'],
        });
        return answerCreated(request, started, wait);
      },
    }),
    defineRoute({
      ...scope,
      method: 'GET',
      path: BASE,
      operationId: 'listRuns',
      role: 'viewer',
      summary: 'List runs, newest first',
      description:
        'The project’s runs of every agent and session, newest first; `agent_id`, `session_id` and ' +
        '`status` narrow the list, `limit` and `offset` page it.',
      params: providerProjectParams,
      query: ListRunsQuery,
      responses: { 200: { description: 'One page of runs.', schema: RunPageSchema } },
      errors: ['not_found'],
      handle: async ({ caller, params, query }) => {
        const { agent_id, session_id, ...rest } = query;
        const page = await deps.list.execute({
          caller,
          projectId: params.project_id,
          query: { agentId: agent_id, sessionId: session_id, ...rest },
        });
        const { total, limit, offset } = page;
        return { status: 200, body: { runs: page.runs.map(presentRun), total, limit, offset } };
      },
    }),
    defineRoute({
      ...scope,
      method: 'GET',
      path: `${BASE}/{run_id}`,
      operationId: 'getRun',
      role: 'viewer',
      summary: 'Read a run, optionally waiting for its end',
      description:
        'With `wait` (a long poll, Browserdeck’s addition to §11) the answer is held until the run is ' +
        'terminal or the wait is over; the run is answered as it is then.',
      params: runParams,
      query: GetRunQuery,
      extraTimeMs: WAIT_MS,
      responses: { 200: { description: 'The run.', schema: RunSchema } },
      errors: ['not_found', 'rate_limited'],
      handle: async ({ caller, params, query }) => {
        const run = await deps.get.execute({
          caller,
          projectId: params.project_id,
          runId: params.run_id,
          waitSec: query.wait,
        });
        return { status: 200, body: presentRun(run) };
      },
    }),
    defineRoute({
      ...scope,
      method: 'POST',
      path: `${BASE}/{run_id}:cancel`,
      operationId: 'cancelRun',
      role: 'developer',
      summary: 'Cancel a run',
      description:
        'Idempotent: a run that has ended is answered unchanged. A running script’s process is killed, ' +
        'and a session the run created is released.',
      params: runParams,
      body: emptyBody,
      responses: { 200: { description: 'The run, CANCELED unless it had ended.', schema: RunSchema } },
      errors: ['not_found'],
      handle: async ({ caller, params }) => {
        const run = await deps.cancel.execute({ caller, projectId: params.project_id, runId: params.run_id });
        return { status: 200, body: presentRun(run) };
      },
    }),
    defineRoute({
      ...scope,
      method: 'GET',
      path: `${BASE}/{run_id}/logs`,
      operationId: 'getRunLogs',
      role: 'viewer',
      summary: 'Page through a run’s logs',
      description:
        'Lines in `seq` order across the streams. Pass `nextCursor` back as `cursor` for the lines ' +
        'after; while the run is active the last page’s `nextCursor` says where to look again.',
      params: runParams,
      query: RunLogsQuery,
      responses: { 200: { description: 'One page of log lines, oldest first.', schema: RunLogPageSchema } },
      errors: ['not_found'],
      handle: async ({ caller, params, query }) => {
        const page = await deps.logs.execute({
          caller,
          projectId: params.project_id,
          runId: params.run_id,
          ...query,
        });
        return {
          status: 200,
          body: { logs: page.logs.map(presentRunLogLine), nextCursor: page.nextCursor },
        };
      },
    }),
    runLogStreamRoute(deps, { ...scope, path: `${BASE}/{run_id}/logs/stream` }, options.heartbeatMs),
  ];
}
