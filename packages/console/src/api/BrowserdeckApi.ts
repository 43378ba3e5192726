import type { ApiClient } from './ApiClient.ts';
import type {
  Agent,
  AgentInput,
  ApiKey,
  LogPage,
  Project,
  Session,
  SessionDebug,
  SessionPage,
  SessionStats,
  SessionStatus,
  User,
} from './types.ts';

/** Session and agent routes take the provider's name or this alias, whatever the provider (§5). */
const PROVIDER = 'cloudbrowser';

const id = (value: string) => encodeURIComponent(value);
const projectPath = (projectId: string) => `/v1/projects/${id(projectId)}`;
const scoped = (projectId: string) => `/v1/${PROVIDER}/projects/${id(projectId)}`;

/** The statistics' bucket size over time. */
export type StatsInterval = 'hour' | 'day';

/**
 * Every endpoint the console uses, by feature: the public HTTP API and nothing else (http-api.md
 * §3 auth, §4 projects, §5 sessions, §6 agents, §12 API keys).
 */
export function browserdeckApi(client: ApiClient) {
  const get = <T>(path: string, query?: Record<string, string | number | boolean | undefined>) =>
    client.request<T>('GET', path, query ? { query } : {});
  return {
    auth: {
      signUp: (email: string, password: string) =>
        client.request<{ user: User }>('POST', '/v1/auth/signup', { json: { email, password }, auth: false }),
      signIn: (email: string, password: string) => client.signIn(email, password),
      sync: () =>
        client.request<{ user: User; project: Pick<Project, 'id' | 'name' | 'slug'> }>(
          'POST',
          '/v1/auth/sync',
        ),
      signOut: () => client.signOut(),
      resume: () => client.resume(),
    },
    projects: {
      list: (archived: boolean) => get<Project[]>('/v1/projects', { archived }),
      get: (projectId: string) => get<Project>(projectPath(projectId)),
      create: (name: string, slug?: string) =>
        client.request<Project>('POST', '/v1/projects', { json: slug ? { name, slug } : { name } }),
      rename: (projectId: string, name: string) =>
        client.request<Project>('PATCH', projectPath(projectId), { json: { name } }),
      archive: (projectId: string) => client.request<Project>('POST', `${projectPath(projectId)}:archive`),
      restore: (projectId: string) =>
        client.request<Project>('PATCH', projectPath(projectId), { json: { archived: false } }),
      delete: (projectId: string) => client.request<void>('DELETE', projectPath(projectId)),
    },
    sessions: {
      list: (
        projectId: string,
        query: { status?: SessionStatus | undefined; limit: number; offset: number },
      ) => get<SessionPage>(`${scoped(projectId)}/sessions`, query),
      get: (projectId: string, sessionId: string) =>
        get<Session>(`${scoped(projectId)}/sessions/${id(sessionId)}`),
      create: (projectId: string, body: { name?: string; timeoutSec?: number; agentId?: string }) =>
        client.request<Session>('POST', `${scoped(projectId)}/sessions`, { json: body }),
      release: (projectId: string, sessionId: string) =>
        client.request<Session>('POST', `${scoped(projectId)}/sessions/${id(sessionId)}:release`),
      logs: (projectId: string, sessionId: string, cursor: string | undefined, limit: number) =>
        get<LogPage>(`${scoped(projectId)}/sessions/${id(sessionId)}/logs`, { cursor, limit }),
      debug: (projectId: string, sessionId: string) =>
        get<SessionDebug>(`${scoped(projectId)}/sessions/${id(sessionId)}/debug`),
      stats: (projectId: string) => get<SessionStats>(`${scoped(projectId)}/sessions/dashboard/stats`),
      series: (projectId: string, interval: StatsInterval, from: Date, to: Date) =>
        get<SessionStats>(`${scoped(projectId)}/sessions/dashboard/stats`, {
          interval,
          from: from.toISOString(),
          to: to.toISOString(),
        }),
    },
    agents: {
      list: (projectId: string) => get<Agent[]>(`${scoped(projectId)}/agents`),
      get: (projectId: string, agentId: string) => get<Agent>(`${scoped(projectId)}/agents/${id(agentId)}`),
      create: (projectId: string, input: AgentInput) =>
        client.request<Agent>('POST', `${scoped(projectId)}/agents`, { json: input }),
      update: (projectId: string, agentId: string, input: Partial<AgentInput>) =>
        client.request<Agent>('PUT', `${scoped(projectId)}/agents/${id(agentId)}`, { json: input }),
      delete: (projectId: string, agentId: string) =>
        client.request<void>('DELETE', `${scoped(projectId)}/agents/${id(agentId)}`),
    },
    apiKeys: {
      list: (projectId: string) => get<ApiKey[]>(`${projectPath(projectId)}/api-keys`),
      create: (projectId: string, name: string, expiresAt: string | undefined) =>
        client.request<ApiKey>('POST', `${projectPath(projectId)}/api-keys`, {
          json: expiresAt ? { name, expiresAt } : { name },
        }),
      revoke: (projectId: string, keyId: string) =>
        client.request<void>('DELETE', `${projectPath(projectId)}/api-keys/${id(keyId)}`),
    },
  };
}

/** The API the screens use. */
export type BrowserdeckApi = ReturnType<typeof browserdeckApi>;
