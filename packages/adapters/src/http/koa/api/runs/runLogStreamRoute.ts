import { type AnyRoute, defineRoute } from '../../kernel/routing/RouteDefinition.ts';
import type { UseCasesOf } from '../shared/UseCasesOf.ts';
import { EventStreamConnection } from './EventStreamConnection.ts';
import { RunLogStreamHeaders, RunLogStreamQuery, runParams } from './runSchemas.ts';
import { RUN_LOG_HEARTBEAT_MS, streamRunLogs } from './streamRunLogs.ts';

/**
 * The use case behind `GET …/runs/{run_id}/logs/stream`: `followLogs` checks the run is the
 * caller's first (its errors are ordinary answers), then follows it.
 */
export type RunLogStreamRouteDeps = UseCasesOf<'runs', 'followLogs'>;

/** Where the route sits: its tag, auth and the `{provider}` values, as the other run routes. */
interface StreamRouteScope {
  tag: string;
  auth: 'userOrKey';
  pathValues: Readonly<Record<string, readonly string[]>>;
  path: string;
}

/**
 * `GET …/runs/{run_id}/logs/stream`: the run's log lines as Server-Sent Events (better-sse), from the
 * line after `Last-Event-ID` (or `?lastEventId=`), then an `end` event with the terminal run, then
 * the stream closes. Who may read the run is checked first, so a 404 or 401 is an ordinary problem
 * answer. The head is answered at once and the events follow in the body, after the middleware has
 * returned: the request cut-off does not reach a stream, however long its run lasts.
 */
export function runLogStreamRoute(
  deps: RunLogStreamRouteDeps,
  scope: StreamRouteScope,
  heartbeatMs = RUN_LOG_HEARTBEAT_MS,
): AnyRoute {
  return defineRoute({
    ...scope,
    method: 'GET',
    operationId: 'streamRunLogs',
    role: 'viewer',
    summary: 'Follow a run’s logs as Server-Sent Events',
    description:
      'Every log line is a `log` event (`id`: its `seq`; `data`: the line as in the logs page), in ' +
      '`seq` order; once the run is terminal and its lines are all sent, one `end` event carries the ' +
      'run and the stream closes. `Last-Event-ID` (or `lastEventId`) resumes after that `seq`. A ' +
      `comment is sent every ${RUN_LOG_HEARTBEAT_MS / 1000} s to keep idle connections open. The ` +
      'request cut-off does not apply to the stream.',
    params: runParams,
    query: RunLogStreamQuery,
    headers: RunLogStreamHeaders,
    responses: {
      200: {
        description: 'The event stream: `log` events, then one `end` event.',
        contentType: 'text/event-stream',
      },
    },
    errors: ['not_found', 'rate_limited'],
    handle: async ({ caller, params, query, headers }) => {
      const afterSeq = headers['Last-Event-ID'] ?? query.lastEventId ?? 0;
      const connection = new EventStreamConnection();
      const events = await deps.followLogs.execute({
        caller,
        projectId: params.project_id,
        runId: params.run_id,
        afterSeq,
        signal: connection.signal,
      });
      await streamRunLogs(connection, events, { afterSeq, heartbeatMs });
      return {
        status: 200,
        contentType: 'text/event-stream; charset=utf-8',
        headers: { 'X-Accel-Buffering': 'no' },
        body: connection.body,
      };
    },
  });
}
