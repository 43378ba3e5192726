import type { ApiClient } from './ApiClient.ts';
import { followRunLogs, type RunLogStreamHandlers } from './followRunLogs.ts';
import type {
  AgentInput,
  AgentRunInput,
  GrantableRole,
  RunStatus,
  SessionInput,
  SessionStatus,
} from './types.ts';

/** Session and agent routes take the provider's name or this alias, whatever the provider (§5). */
const PROVIDER = 'cloudbrowser' as const;

/** The statistics' bucket size over time. */
export type StatsInterval = 'hour' | 'day';

const bool = (value: boolean) => (value ? 'true' : 'false');

/**
 * Every endpoint the console uses, by feature: the public HTTP API and nothing else (http-api.md
 * §3 auth, §4 projects, §5 sessions, §6 agents, §11 runs, §12 API keys; SPEC §17 members, invitations,
 * the audit log and the operators' routes). Paths, parameters, bodies
 * and answers are typed by the API's OpenAPI document.
 */
export function browserdeckApi(client: ApiClient) {
  const project = (projectId: string) => ({ path: { project_id: projectId } });
  const scoped = (projectId: string) => ({ path: { provider: PROVIDER, project_id: projectId } });
  const session = (projectId: string, sessionId: string) => ({
    path: { provider: PROVIDER, project_id: projectId, session_id: sessionId },
  });
  const agent = (projectId: string, agentId: string) => ({
    path: { provider: PROVIDER, project_id: projectId, agent_id: agentId },
  });
  const run = (projectId: string, runId: string) => ({
    path: { provider: PROVIDER, project_id: projectId, run_id: runId },
  });
  return {
    auth: {
      /** `invitation`: a project's or an operator's invitation token, which `SIGNUP=invite|closed` need. */
      signUp: (email: string, password: string, invitation?: string) =>
        client.send(
          (api) =>
            api.POST('/v1/auth/signup', {
              body: invitation ? { email, password, invitation } : { email, password },
            }),
          { auth: false },
        ),
      signIn: (email: string, password: string) => client.signIn(email, password),
      sync: () => client.send((api) => api.POST('/v1/auth/sync')),
      signOut: () => client.signOut(),
      resume: () => client.resume(),
    },
    projects: {
      list: (archived: boolean) =>
        client.send((api) => api.GET('/v1/projects', { params: { query: { archived: bool(archived) } } })),
      get: (projectId: string) =>
        client.send((api) => api.GET('/v1/projects/{project_id}', { params: project(projectId) })),
      create: (name: string, slug?: string) =>
        client.send((api) => api.POST('/v1/projects', { body: slug ? { name, slug } : { name } })),
      rename: (projectId: string, name: string) =>
        client.send((api) =>
          api.PATCH('/v1/projects/{project_id}', { params: project(projectId), body: { name } }),
        ),
      archive: (projectId: string) =>
        client.send((api) => api.POST('/v1/projects/{project_id}:archive', { params: project(projectId) })),
      restore: (projectId: string) =>
        client.send((api) =>
          api.PATCH('/v1/projects/{project_id}', { params: project(projectId), body: { archived: false } }),
        ),
      delete: (projectId: string) =>
        client.send((api) => api.DELETE('/v1/projects/{project_id}', { params: project(projectId) })),
      transfer: (projectId: string, userId: string) =>
        client.send((api) =>
          api.POST('/v1/projects/{project_id}:transfer', { params: project(projectId), body: { userId } }),
        ),
      audit: (projectId: string, cursor: string | undefined, limit: number) =>
        client.send((api) =>
          api.GET('/v1/projects/{project_id}/audit', {
            params: { ...project(projectId), query: { cursor, limit } },
          }),
        ),
    },
    members: {
      list: (projectId: string) =>
        client.send((api) => api.GET('/v1/projects/{project_id}/members', { params: project(projectId) })),
      invite: (projectId: string, email: string, role: GrantableRole) =>
        client.send((api) =>
          api.POST('/v1/projects/{project_id}/members', {
            params: project(projectId),
            body: { email, role },
          }),
        ),
      changeRole: (projectId: string, userId: string, role: GrantableRole) =>
        client.send((api) =>
          api.PATCH('/v1/projects/{project_id}/members/{user_id}', {
            params: { path: { project_id: projectId, user_id: userId } },
            body: { role },
          }),
        ),
      /** Removes a member; with the caller's own id, leaves the project. */
      remove: (projectId: string, userId: string) =>
        client.send((api) =>
          api.DELETE('/v1/projects/{project_id}/members/{user_id}', {
            params: { path: { project_id: projectId, user_id: userId } },
          }),
        ),
    },
    invitations: {
      list: (projectId: string) =>
        client.send((api) =>
          api.GET('/v1/projects/{project_id}/invitations', { params: project(projectId) }),
        ),
      revoke: (projectId: string, invitationId: string) =>
        client.send((api) =>
          api.DELETE('/v1/projects/{project_id}/invitations/{invitation_id}', {
            params: { path: { project_id: projectId, invitation_id: invitationId } },
          }),
        ),
      accept: (token: string) =>
        client.send((api) => api.POST('/v1/invitations/{token}:accept', { params: { path: { token } } })),
    },
    admin: {
      accounts: (cursor: string | undefined, limit: number) =>
        client.send((api) => api.GET('/v1/admin/users', { params: { query: { cursor, limit } } })),
      invite: (email: string) => client.send((api) => api.POST('/v1/admin/users', { body: { email } })),
      disable: (userId: string) =>
        client.send((api) =>
          api.POST('/v1/admin/users/{user_id}:disable', { params: { path: { user_id: userId } } }),
        ),
      enable: (userId: string) =>
        client.send((api) =>
          api.POST('/v1/admin/users/{user_id}:enable', { params: { path: { user_id: userId } } }),
        ),
      usage: () => client.send((api) => api.GET('/v1/admin/usage')),
    },
    sessions: {
      list: (
        projectId: string,
        query: { status?: SessionStatus | undefined; limit: number; offset: number },
      ) =>
        client.send((api) =>
          api.GET('/v1/{provider}/projects/{project_id}/sessions', {
            params: { ...scoped(projectId), query },
          }),
        ),
      get: (projectId: string, sessionId: string) =>
        client.send((api) =>
          api.GET('/v1/{provider}/projects/{project_id}/sessions/{session_id}', {
            params: session(projectId, sessionId),
          }),
        ),
      create: (projectId: string, body: SessionInput) =>
        client.send((api) =>
          api.POST('/v1/{provider}/projects/{project_id}/sessions', { params: scoped(projectId), body }),
        ),
      release: (projectId: string, sessionId: string) =>
        client.send((api) =>
          api.POST('/v1/{provider}/projects/{project_id}/sessions/{session_id}:release', {
            params: session(projectId, sessionId),
          }),
        ),
      logs: (projectId: string, sessionId: string, cursor: string | undefined, limit: number) =>
        client.send((api) =>
          api.GET('/v1/{provider}/projects/{project_id}/sessions/{session_id}/logs', {
            params: { ...session(projectId, sessionId), query: { cursor, limit } },
          }),
        ),
      har: (projectId: string, sessionId: string) =>
        client.send((api) =>
          api.GET('/v1/{provider}/projects/{project_id}/sessions/{session_id}/har', {
            params: session(projectId, sessionId),
          }),
        ),
      replay: (projectId: string, sessionId: string) =>
        client.send((api) =>
          api.GET('/v1/{provider}/projects/{project_id}/sessions/{session_id}/replay', {
            params: session(projectId, sessionId),
          }),
        ),
      /** A tab's MP4 as a `Blob`, for a `<video>` (whose own requests could not carry the token). */
      video: (projectId: string, sessionId: string, pageId: string) =>
        client.send((api) =>
          api.GET('/v1/{provider}/projects/{project_id}/sessions/{session_id}/replay/{page_id}.mp4', {
            params: { path: { ...session(projectId, sessionId).path, page_id: pageId } },
            parseAs: 'blob',
          }),
        ),
      debug: (projectId: string, sessionId: string) =>
        client.send((api) =>
          api.GET('/v1/{provider}/projects/{project_id}/sessions/{session_id}/debug', {
            params: session(projectId, sessionId),
          }),
        ),
      stats: (projectId: string) =>
        client.send((api) =>
          api.GET('/v1/{provider}/projects/{project_id}/sessions/dashboard/stats', {
            params: scoped(projectId),
          }),
        ),
      series: (projectId: string, interval: StatsInterval, from: Date, to: Date) =>
        client.send((api) =>
          api.GET('/v1/{provider}/projects/{project_id}/sessions/dashboard/stats', {
            params: {
              ...scoped(projectId),
              query: { interval, from: from.toISOString(), to: to.toISOString() },
            },
          }),
        ),
    },
    agents: {
      list: (projectId: string) =>
        client.send((api) =>
          api.GET('/v1/{provider}/projects/{project_id}/agents', { params: scoped(projectId) }),
        ),
      get: (projectId: string, agentId: string) =>
        client.send((api) =>
          api.GET('/v1/{provider}/projects/{project_id}/agents/{agent_id}', {
            params: agent(projectId, agentId),
          }),
        ),
      create: (projectId: string, body: AgentInput) =>
        client.send((api) =>
          api.POST('/v1/{provider}/projects/{project_id}/agents', { params: scoped(projectId), body }),
        ),
      update: (projectId: string, agentId: string, body: Partial<AgentInput>) =>
        client.send((api) =>
          api.PUT('/v1/{provider}/projects/{project_id}/agents/{agent_id}', {
            params: agent(projectId, agentId),
            body,
          }),
        ),
      delete: (projectId: string, agentId: string) =>
        client.send((api) =>
          api.DELETE('/v1/{provider}/projects/{project_id}/agents/{agent_id}', {
            params: agent(projectId, agentId),
          }),
        ),
    },
    runs: {
      list: (
        projectId: string,
        query: {
          agentId?: string | undefined;
          status?: RunStatus | undefined;
          limit: number;
          offset: number;
        },
      ) =>
        client.send((api) =>
          api.GET('/v1/{provider}/projects/{project_id}/runs', {
            params: {
              ...scoped(projectId),
              query: {
                agent_id: query.agentId,
                status: query.status,
                limit: query.limit,
                offset: query.offset,
              },
            },
          }),
        ),
      get: (projectId: string, runId: string) =>
        client.send((api) =>
          api.GET('/v1/{provider}/projects/{project_id}/runs/{run_id}', { params: run(projectId, runId) }),
        ),
      startAgent: (projectId: string, agentId: string, body: AgentRunInput) =>
        client.send((api) =>
          api.POST('/v1/{provider}/projects/{project_id}/agents/{agent_id}/runs', {
            params: agent(projectId, agentId),
            body,
          }),
        ),
      cancel: (projectId: string, runId: string) =>
        client.send((api) =>
          api.POST('/v1/{provider}/projects/{project_id}/runs/{run_id}:cancel', {
            params: run(projectId, runId),
          }),
        ),
      /**
       * Follows the run's logs live (`…/logs/stream`, SSE) until it ends; `close()` the answer to stop.
       * Not through openapi-fetch (a stream, not a JSON answer): its path is written out here.
       */
      followLogs: (projectId: string, runId: string, handlers: RunLogStreamHandlers) =>
        followRunLogs(
          client.urlOf(
            `/v1/${PROVIDER}/projects/${encodeURIComponent(projectId)}/runs/${encodeURIComponent(runId)}/logs/stream`,
          ),
          (url, init) => client.fetchAuthorized(url, init),
          handlers,
        ),
    },
    apiKeys: {
      list: (projectId: string) =>
        client.send((api) => api.GET('/v1/projects/{project_id}/api-keys', { params: project(projectId) })),
      create: (projectId: string, name: string, expiresAt: string | undefined) =>
        client.send((api) =>
          api.POST('/v1/projects/{project_id}/api-keys', {
            params: project(projectId),
            body: expiresAt ? { name, expiresAt } : { name },
          }),
        ),
      revoke: (projectId: string, keyId: string) =>
        client.send((api) =>
          api.DELETE('/v1/projects/{project_id}/api-keys/{key_id}', {
            params: { path: { project_id: projectId, key_id: keyId } },
          }),
        ),
    },
  };
}

/** The API the screens use. */
export type BrowserdeckApi = ReturnType<typeof browserdeckApi>;
