import {
  NotFoundError,
  SESSION_LIST_MAX_LIMIT,
  SESSION_LOGS_MAX_LIMIT,
  type SessionLogEntry,
  type SessionRequest,
} from '@browserdeck/domain';
import { z } from 'zod';
import { type LiveUrlDeps, presentLiveUrls } from '../api/live-view/presentLiveUrls.ts';
import { answerHar, HAR_ROUTE } from '../api/sessions/harRoute.ts';
import {
  LIVE_URLS_ERRORS,
  SESSION_PROVIDER_CALL_ERRORS,
  type SessionRouteDeps,
} from '../api/sessions/sessionRoutes.ts';
import { SessionLiveUrlsQuery, SessionLiveUrlsSchema } from '../api/sessions/sessionSchemas.ts';
import { PROVIDER_CALL_ERRORS } from '../api/shared/providerScope.ts';
import type { UseCasesOf } from '../api/shared/UseCasesOf.ts';
import { type AnyRoute, defineRoute } from '../kernel/routing/RouteDefinition.ts';
import { BrowserbaseSessionListSchema, BrowserbaseSessionSchema } from './browserbaseResponseSchemas.ts';
import { BROWSERBASE_ROUTE } from './browserbaseRoute.ts';
import {
  BrowserbaseCreateSessionBody,
  BrowserbaseListSessionsQuery,
  BrowserbaseUpdateSessionBody,
  browserbaseIdParams,
} from './browserbaseSchemas.ts';
import { presentBrowserbaseSession } from './presentBrowserbaseSession.ts';
import { keyProject } from './requireApiKey.ts';
import { streamJsonArray } from './streamJsonArray.ts';

/** The use cases behind Browserbase's `/v1/sessions`: §5's, and the context read. */
export interface BrowserbaseSessionRouteDeps extends SessionRouteDeps {
  /** A context must exist before a session opens it, as at Browserbase. */
  contexts: UseCasesOf<'contexts', 'get'>;
  /** Where the live-view links of `/debug` point (§5's `…/debug` answers the same). */
  live: LiveUrlDeps;
}

/** Sessions the list answers at most, newest first (Browserbase's list is one unpaged array). */
export const BROWSERBASE_LIST_MAX = 1000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A session id from the path; anything that is not one of ours is a 404, as Browserbase answers. */
export function sessionIdOf(id: string): string {
  if (!UUID.test(id)) throw new NotFoundError('Session');
  return id.toLowerCase();
}

/**
 * Browserbase's session endpoints over the same use cases and rows as http-api.md §5: create, list
 * (`status`, `q=user_metadata[…]`), read, release (`REQUEST_RELEASE`), logs and the live-view URLs.
 */
export function browserbaseSessionRoutes(deps: BrowserbaseSessionRouteDeps): AnyRoute[] {
  return [
    defineRoute({
      ...BROWSERBASE_ROUTE,
      method: 'POST',
      path: '/v1/sessions',
      operationId: 'browserbaseCreateSession',
      role: 'developer',
      summary: 'Create a session (Browserbase)',
      body: BrowserbaseCreateSessionBody,
      responses: {
        201: { description: 'The session, with its connectUrl.', schema: BrowserbaseSessionSchema },
      },
      errors: [
        'not_found',
        'extension_not_found',
        'project_archived',
        'unsupported_option',
        ...PROVIDER_CALL_ERRORS,
      ],
      handle: async ({ caller, body, publicUrls }) => {
        const projectId = keyProject(caller, body.projectId);
        const settings = body.browserSettings ?? {};
        const request: SessionRequest = {
          region: body.region,
          timeoutSec: body.timeout,
          extensionId: settings.extensionId ?? body.extensionId,
          contextId: settings.context?.id,
          // Browserbase saves a context back only when asked to (`persist` defaults to false).
          contextPersist: settings.context ? (settings.context.persist ?? false) : undefined,
          metadata: body.userMetadata,
          // Browserbase ends a session when its client disconnects unless `keepAlive` is set.
          keepAlive: body.keepAlive ?? false,
          viewport: settings.viewport,
          // Recorded unless switched off (SPEC §18), as Browserbase records by default.
          record: settings.recordSession,
          // `true` is Browserbase's own proxy network: passed on, for the provider to honour or refuse.
          proxies: body.proxies === true ? [{ type: 'browserbase' }] : body.proxies || undefined,
        };
        // Browserbase opens only contexts that exist; Browserdeck's own API makes a profile on first use.
        if (request.contextId) {
          await deps.contexts.get.execute({ caller, projectId, contextId: request.contextId });
        }
        const { session } = await deps.create.execute({ caller, projectId, request });
        return { status: 201, body: presentBrowserbaseSession(session, publicUrls) };
      },
    }),
    defineRoute({
      ...BROWSERBASE_ROUTE,
      method: 'GET',
      path: '/v1/sessions',
      operationId: 'browserbaseListSessions',
      role: 'viewer',
      summary: 'List sessions (Browserbase)',
      query: BrowserbaseListSessionsQuery,
      responses: {
        200: {
          description: 'The sessions, newest first (at most 1000).',
          schema: BrowserbaseSessionListSchema,
        },
      },
      errors: ['not_found'],
      handle: async ({ caller, query, publicUrls }) => {
        const projectId = keyProject(caller);
        const sessions = [];
        for (let offset = 0; offset < BROWSERBASE_LIST_MAX; offset += SESSION_LIST_MAX_LIMIT) {
          const page = await deps.list.execute({
            caller,
            projectId,
            status: query.status,
            metadataQuery: query.q,
            limit: SESSION_LIST_MAX_LIMIT,
            offset,
          });
          sessions.push(...page.sessions);
          if (offset + page.sessions.length >= page.total || page.sessions.length === 0) break;
        }
        return {
          status: 200,
          body: sessions.map((session) => presentBrowserbaseSession(session, publicUrls)),
        };
      },
    }),
    defineRoute({
      ...BROWSERBASE_ROUTE,
      method: 'GET',
      path: '/v1/sessions/{id}',
      operationId: 'browserbaseGetSession',
      role: 'viewer',
      summary: 'Read a session (Browserbase)',
      params: browserbaseIdParams,
      responses: {
        200: { description: 'The session, refreshed from the provider.', schema: BrowserbaseSessionSchema },
      },
      errors: ['not_found'],
      handle: async ({ caller, params, publicUrls }) => {
        const { session } = await deps.get.execute({
          caller,
          projectId: keyProject(caller),
          sessionId: sessionIdOf(params.id),
        });
        return { status: 200, body: presentBrowserbaseSession(session, publicUrls) };
      },
    }),
    defineRoute({
      ...BROWSERBASE_ROUTE,
      method: 'POST',
      path: '/v1/sessions/{id}',
      operationId: 'browserbaseUpdateSession',
      role: 'developer',
      summary: 'Release a session (Browserbase)',
      params: browserbaseIdParams,
      body: BrowserbaseUpdateSessionBody,
      responses: { 200: { description: 'The session, ended.', schema: BrowserbaseSessionSchema } },
      errors: SESSION_PROVIDER_CALL_ERRORS,
      handle: async ({ caller, params, body, publicUrls }) => {
        const session = await deps.release.execute({
          caller,
          projectId: keyProject(caller, body.projectId),
          sessionId: sessionIdOf(params.id),
        });
        return { status: 200, body: presentBrowserbaseSession(session, publicUrls) };
      },
    }),
    defineRoute({
      ...BROWSERBASE_ROUTE,
      method: 'GET',
      path: '/v1/sessions/{id}/logs',
      operationId: 'browserbaseSessionLogs',
      role: 'viewer',
      summary: 'A session’s logs (Browserbase)',
      params: browserbaseIdParams,
      responses: { 200: { description: 'Every recorded CDP event, oldest first.' } },
      // Browserbase answers one bare array: it is streamed page by page (the logs are bounded by
      // their byte budget, and the body is never built whole in memory).
      errors: SESSION_PROVIDER_CALL_ERRORS,
      handle: async ({ caller, params }) => {
        const input = { caller, projectId: keyProject(caller), sessionId: sessionIdOf(params.id) };
        const withId = (logs: readonly SessionLogEntry[]) =>
          logs.map((entry) => ({ ...entry, sessionId: input.sessionId }));
        const first = await deps.logs.execute({ ...input, limit: SESSION_LOGS_MAX_LIMIT });
        async function* rest() {
          for (let cursor = first.nextCursor; cursor !== null; ) {
            const page = await deps.logs.execute({ ...input, cursor, limit: SESSION_LOGS_MAX_LIMIT });
            yield withId(page.logs);
            cursor = page.nextCursor;
          }
        }
        return {
          status: 200,
          body: streamJsonArray(withId(first.logs), rest()),
          contentType: 'application/json; charset=utf-8',
        };
      },
    }),
    defineRoute({
      ...BROWSERBASE_ROUTE,
      ...HAR_ROUTE,
      path: '/v1/sessions/{id}/har',
      operationId: 'browserbaseSessionHar',
      summary: 'A session’s network as HAR 1.2 (beyond Browserbase)',
      description:
        'The same document as §5’s `…/har`: every request of every tab, sensitive values redacted unless `sensitive=true`.',
      params: browserbaseIdParams,
      handle: ({ caller, params, query }) =>
        answerHar(
          deps.har.execute({
            caller,
            projectId: keyProject(caller),
            sessionId: sessionIdOf(params.id),
            sensitive: query.sensitive,
          }),
        ),
    }),
    defineRoute({
      ...BROWSERBASE_ROUTE,
      method: 'GET',
      path: '/v1/sessions/{id}/debug',
      operationId: 'browserbaseSessionDebug',
      role: 'viewer',
      summary: 'Live-view URLs of a session (Browserbase)',
      params: browserbaseIdParams,
      // Browserbase's URL lifetime: ours is the token's (an hour), and is not shortened on request.
      // `readOnly` is ours (§5's): a token that only watches.
      query: z.object({ expiresIn: z.string().optional(), readOnly: SessionLiveUrlsQuery.shape.readOnly }),
      responses: {
        200: { description: 'The live-view URLs (§5’s `…/debug` answer).', schema: SessionLiveUrlsSchema },
      },
      errors: LIVE_URLS_ERRORS,
      handle: async ({ caller, params, query, publicUrls }) => {
        const sessionId = sessionIdOf(params.id);
        const view = await deps.liveView.execute({
          caller,
          projectId: keyProject(caller),
          sessionId,
          readOnly: query.readOnly,
        });
        return { status: 200, body: await presentLiveUrls(view, deps.live, publicUrls) };
      },
    }),
  ];
}
