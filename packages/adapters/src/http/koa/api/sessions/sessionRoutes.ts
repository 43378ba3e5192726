import { type Caller, STATS_SERIES_MAX_BUCKETS } from '@browserdeck/domain';
import { type AnyRoute, defineRoute } from '../../kernel/routing/RouteDefinition.ts';
import { type LiveUrlDeps, presentLiveUrls } from '../live-view/presentLiveUrls.ts';
import { emptyBody, providerProjectParams } from '../shared/commonSchemas.ts';
import { PROVIDER_CALL_ERRORS, PROVIDER_PROJECT_PATH, providerPathValues } from '../shared/providerScope.ts';
import type { UseCasesOf } from '../shared/UseCasesOf.ts';
import { answerHar, HAR_ROUTE } from './harRoute.ts';
import { presentSession } from './presentSession.ts';
import { presentSessionStats } from './presentSessionStats.ts';
import {
  CreateSessionBody,
  IdempotencyHeaders,
  ListSessionsQuery,
  SessionLiveUrlsQuery,
  SessionLiveUrlsSchema,
  SessionLogsQuery,
  SessionLogsSchema,
  SessionPageSchema,
  SessionSchema,
  SessionStatsQuery,
  SessionStatsSchema,
  sessionParams,
} from './sessionSchemas.ts';

/**
 * The use cases behind `/v1/{provider}/projects/{project_id}/sessions`, with the live view's: its
 * URLs (`…/debug`, http-api.md §14), admitting a viewer by its token (the page and its WebSocket),
 * and re-checking an open viewer's grant (its WebSocket is closed once it no longer holds).
 */
/** What releasing a session and reading its logs may answer, in both dialects (§5 and §13). */
export const SESSION_PROVIDER_CALL_ERRORS = [
  'not_found',
  ...PROVIDER_CALL_ERRORS,
  'session_on_other_instance',
] as const;

/** What asking for a session's live-view URLs may answer, in both dialects (§5's `…/debug` too). */
export const LIVE_URLS_ERRORS = [
  'not_found',
  'project_archived',
  'session_ended',
  'session_on_other_instance',
  'not_implemented',
  'unsupported_option',
  ...PROVIDER_CALL_ERRORS,
] as const;

export type SessionRouteDeps = UseCasesOf<
  'sessions',
  | 'create'
  | 'list'
  | 'get'
  | 'release'
  | 'logs'
  | 'har'
  | 'stats'
  | 'liveView'
  | 'openLiveView'
  | 'checkLiveViewGrant'
>;

/** These routes' OpenAPI tag and what it groups. */
export const SESSIONS_TAG = {
  name: 'Sessions',
  description:
    'Cloud-browser sessions of a project at the configured provider (`{provider}`): start, read, list, release, logs, statistics.',
};
const TAG = SESSIONS_TAG.name;
const BASE = `${PROVIDER_PROJECT_PATH}/sessions`;

/**
 * `/v1/{provider}/projects/{project_id}/sessions`: cloud-browser sessions of one of the caller's
 * projects (http-api.md §5). `{provider}` is `providerName` or `cloudbrowser`; anything else is a 404.
 * `live` is where the live-view links of `…/debug` point (http-api.md §14).
 */
export function sessionRoutes(
  deps: SessionRouteDeps,
  providerName: string,
  live: LiveUrlDeps = {},
): AnyRoute[] {
  const pathValues = providerPathValues(providerName);
  const scope = { tag: TAG, auth: 'userOrKey' as const, pathValues };
  const ids = (params: { project_id: string }, caller: Caller) => ({
    caller,
    projectId: params.project_id,
  });
  return [
    defineRoute({
      ...scope,
      method: 'POST',
      path: BASE,
      operationId: 'createSession',
      role: 'developer',
      summary: 'Start a cloud-browser session',
      description:
        'Every field is optional. With `agentId` the agent’s fields are the defaults and `env` is merged ' +
        'over its `envVars`. Nothing is stored when the provider refuses.',
      params: providerProjectParams,
      headers: IdempotencyHeaders,
      body: CreateSessionBody,
      responses: {
        201: {
          description: 'The new session (on a replay: the session the first request created).',
          schema: SessionSchema,
          headers: { 'Idempotent-Replayed': { description: '`true` when this answer is a replay.' } },
        },
      },
      errors: [
        'not_found',
        'agent_not_found',
        'project_archived',
        'agent_inactive',
        'idempotency_key_reused',
        ...PROVIDER_CALL_ERRORS,
        'extension_not_found',
        'unsupported_option',
      ],
      handle: async ({ caller, params, headers, body, publicUrls }) => {
        const { session, replayed } = await deps.create.execute({
          ...ids(params, caller),
          request: body,
          idempotencyKey: headers['Idempotency-Key'],
        });
        const replay = replayed ? { headers: { 'Idempotent-Replayed': 'true' } } : {};
        return { status: 201, body: presentSession(session, publicUrls), ...replay };
      },
    }),
    defineRoute({
      ...scope,
      method: 'GET',
      path: BASE,
      operationId: 'listSessions',
      role: 'viewer',
      summary: 'List sessions, newest first',
      description:
        'Served from the database; a background reconciler keeps active sessions fresh. `q` keeps ' +
        "the sessions whose `metadata` holds a value at a key path (`user_metadata['a']['b']:'v'`, " +
        'as the Browserbase-compatible API); a malformed `q` is a 400 naming it.',
      params: providerProjectParams,
      query: ListSessionsQuery,
      responses: { 200: { description: 'One page of sessions.', schema: SessionPageSchema } },
      errors: ['not_found'],
      handle: async ({ caller, params, query, publicUrls }) => {
        const { q, ...paging } = query;
        const page = await deps.list.execute({ ...ids(params, caller), ...paging, metadataQuery: q });
        const { total, limit, offset } = page;
        return {
          status: 200,
          body: {
            sessions: page.sessions.map((session) => presentSession(session, publicUrls)),
            total,
            limit,
            offset,
          },
        };
      },
    }),
    defineRoute({
      ...scope,
      method: 'GET',
      path: `${BASE}/dashboard/stats`,
      operationId: 'getSessionStats',
      role: 'viewer',
      summary: 'Session statistics of the project, optionally over time',
      description:
        'Counts by status, sessions created in the last 24 hours and browser time, computed by the ' +
        'database over all the project’s sessions. With `interval`, `series` adds them per UTC hour or ' +
        'day from `from` to `to`; `from` or `to` without `interval`, `from` not before `to`, or more than ' +
        `${STATS_SERIES_MAX_BUCKETS} buckets is a 400 naming the field.`,
      params: providerProjectParams,
      query: SessionStatsQuery,
      responses: {
        200: { description: 'Aggregates over all the project’s sessions.', schema: SessionStatsSchema },
      },
      errors: ['not_found'],
      handle: async ({ caller, params, query }) => {
        const { interval, from, to } = query;
        const report = await deps.stats.execute({
          ...ids(params, caller),
          interval,
          from: from === undefined ? undefined : new Date(from),
          to: to === undefined ? undefined : new Date(to),
        });
        return { status: 200, body: presentSessionStats(report) };
      },
    }),
    defineRoute({
      ...scope,
      method: 'GET',
      path: `${BASE}/{session_id}`,
      operationId: 'getSession',
      role: 'viewer',
      summary: 'Read a session, refreshed from the provider',
      description:
        'An active session is refreshed from the provider first. If the provider cannot be reached, the ' +
        'stored state is answered with its `lastSyncedAt` and an `X-Sync-Error` header.',
      params: sessionParams,
      responses: {
        200: {
          description: 'The session.',
          schema: SessionSchema,
          headers: { 'X-Sync-Error': { description: 'The error code, when the refresh failed.' } },
        },
      },
      errors: ['not_found'],
      handle: async ({ caller, params, publicUrls }) => {
        const { session, syncError } = await deps.get.execute({
          ...ids(params, caller),
          sessionId: params.session_id,
        });
        const headers = syncError ? { 'X-Sync-Error': syncError } : undefined;
        return { status: 200, body: presentSession(session, publicUrls), ...(headers ? { headers } : {}) };
      },
    }),
    defineRoute({
      ...scope,
      method: 'POST',
      path: `${BASE}/{session_id}:release`,
      operationId: 'releaseSession',
      role: 'developer',
      summary: 'Release (end) a session',
      description: 'Idempotent: a session that has ended is returned unchanged.',
      params: sessionParams,
      body: emptyBody,
      responses: { 200: { description: 'The session, ended.', schema: SessionSchema } },
      errors: SESSION_PROVIDER_CALL_ERRORS,
      handle: async ({ caller, params, publicUrls }) => ({
        status: 200,
        body: presentSession(
          await deps.release.execute({
            ...ids(params, caller),
            sessionId: params.session_id,
          }),
          publicUrls,
        ),
      }),
    }),
    defineRoute({
      ...scope,
      method: 'GET',
      path: `${BASE}/{session_id}/logs`,
      operationId: 'getSessionLogs',
      role: 'viewer',
      summary: 'Page through the session’s provider logs',
      description:
        'The CDP events the provider recorded, paged here: pass `nextCursor` back as `cursor` until it ' +
        'is null. A cursor is opaque; a forged or altered one is a 400.',
      params: sessionParams,
      query: SessionLogsQuery,
      responses: {
        200: { description: 'One page of log entries, oldest first.', schema: SessionLogsSchema },
      },
      errors: SESSION_PROVIDER_CALL_ERRORS,
      handle: async ({ caller, params, query }) => ({
        status: 200,
        body: await deps.logs.execute({
          ...ids(params, caller),
          sessionId: params.session_id,
          ...query,
        }),
      }),
    }),
    defineRoute({
      ...scope,
      ...HAR_ROUTE,
      path: `${BASE}/{session_id}/har`,
      operationId: 'getSessionHar',
      summary: 'The session’s network as HAR 1.2',
      description:
        'Every request of every tab (an entry each, `pageref` naming its tab’s page), during the session ' +
        'and after it, from any instance. `Authorization`, `Cookie` and `Set-Cookie` values are redacted ' +
        'unless `sensitive=true`; proxy credentials never appear. Local and Selenium Grid sessions only.',
      params: sessionParams,
      handle: ({ caller, params, query }) =>
        answerHar(
          deps.har.execute({
            ...ids(params, caller),
            sessionId: params.session_id,
            sensitive: query.sensitive,
          }),
        ),
    }),
    defineRoute({
      ...scope,
      method: 'GET',
      path: `${BASE}/{session_id}/debug`,
      operationId: 'getSessionLiveUrls',
      role: 'viewer',
      summary: 'Live-view URLs of a running session',
      description:
        'Browserbase’s `SessionLiveURLs` shape. `debuggerFullscreenUrl` opens a page that shows the ' +
        'browser live and forwards mouse, wheel and keyboard input; `pages` has the same per tab. ' +
        'With `readOnly=true` the token itself only watches (removing `&readOnly=true` from its URLs ' +
        'does not lift it); appending `&readOnly=true` to a full token’s URL also only watches. The ' +
        'URLs carry a token for this one session that expires after an hour and stops working when ' +
        'the session ends, the project is archived, or the API key or sign-in that asked is revoked ' +
        'or ended (open viewers are then closed). `wsUrl` is the session’s CDP `connectUrl` (its signing key masked in a read-only answer, and ' +
        'for a viewer). A ' +
        'provider with live URLs of its own (Browserbase) answers those, and refuses `readOnly=true`.',
      params: sessionParams,
      query: SessionLiveUrlsQuery,
      responses: {
        200: { description: 'The live-view URLs.', schema: SessionLiveUrlsSchema },
      },
      errors: LIVE_URLS_ERRORS,
      handle: async ({ caller, params, query, publicUrls }) => {
        const view = await deps.liveView.execute({
          ...ids(params, caller),
          sessionId: params.session_id,
          readOnly: query.readOnly,
        });
        return { status: 200, body: await presentLiveUrls(view, live, publicUrls) };
      },
    }),
  ];
}
