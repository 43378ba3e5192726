import { RUN_STATUSES, type RunStatus, SESSION_STATUSES, type SessionStatus } from '../api/types.ts';

/** The screens of a project, as its navigation lists them. */
export const PROJECT_TABS = ['sessions', 'stats', 'agents', 'runs', 'apiKeys', 'members', 'audit'] as const;
/** One of `PROJECT_TABS`. */
export type ProjectTab = (typeof PROJECT_TABS)[number];

/** Every screen of the console with its parameters; `notFound` for any other path. */
export type Route =
  | { name: 'signin' }
  | { name: 'signup' }
  | { name: 'projects' }
  | { name: 'invitation' }
  | { name: 'admin' }
  | { name: 'sessions'; projectId: string; status: SessionStatus | undefined; offset: number }
  | { name: 'session'; projectId: string; sessionId: string }
  | { name: 'stats'; projectId: string }
  | { name: 'agents'; projectId: string }
  | { name: 'agent'; projectId: string; agentId: string }
  | {
      name: 'runs';
      projectId: string;
      agentId: string | undefined;
      status: RunStatus | undefined;
      offset: number;
    }
  | { name: 'run'; projectId: string; runId: string }
  | { name: 'apiKeys'; projectId: string }
  | { name: 'members'; projectId: string }
  | { name: 'audit'; projectId: string }
  | { name: 'notFound' };

/** The path segment of each project tab. */
const TAB_SEGMENT: Record<ProjectTab, string> = {
  sessions: 'sessions',
  stats: 'stats',
  agents: 'agents',
  runs: 'runs',
  apiKeys: 'api-keys',
  members: 'members',
  audit: 'audit',
};

/** A non-negative offset from the query, 0 for anything else. */
function offsetOf(query: URLSearchParams): number {
  const offset = Number.parseInt(query.get('offset') ?? '0', 10);
  return Number.isFinite(offset) && offset > 0 ? offset : 0;
}

/** A list's query: its filters that are set, and the offset unless 0. */
function searchOf(filters: Record<string, string | undefined>, offset: number): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value) query.set(key, value);
  if (offset > 0) query.set('offset', String(offset));
  const search = query.toString();
  return search ? `?${search}` : '';
}

/**
 * The route of a path relative to the console's root (`projects/x/sessions`, no leading slash) and
 * its query string. History routing: the server answers every such path with the console's page.
 */
export function parseRoute(relativePath: string, search = ''): Route {
  const parts = relativePath.split('/').filter(Boolean).map(decodeURIComponent);
  const query = new URLSearchParams(search);
  const [first, projectId, tab, itemId, ...rest] = parts;
  if (parts.length === 0) return { name: 'projects' };
  if (parts.length === 1 && first === 'signin') return { name: 'signin' };
  if (parts.length === 1 && first === 'signup') return { name: 'signup' };
  if (parts.length === 1 && first === 'invitation') return { name: 'invitation' };
  if (parts.length === 1 && first === 'admin') return { name: 'admin' };
  if (first !== 'projects' || rest.length > 0) return { name: 'notFound' };
  if (!projectId) return { name: 'projects' };
  if (!tab || tab === 'sessions') {
    if (itemId) return { name: 'session', projectId, sessionId: itemId };
    const status = query.get('status');
    return {
      name: 'sessions',
      projectId,
      status: SESSION_STATUSES.find((s) => s === status),
      offset: offsetOf(query),
    };
  }
  if (tab === 'runs') {
    if (itemId) return { name: 'run', projectId, runId: itemId };
    const status = query.get('status');
    return {
      name: 'runs',
      projectId,
      agentId: query.get('agent') || undefined,
      status: RUN_STATUSES.find((s) => s === status),
      offset: offsetOf(query),
    };
  }
  if (tab === 'stats' && !itemId) return { name: 'stats', projectId };
  if (tab === 'api-keys' && !itemId) return { name: 'apiKeys', projectId };
  if (tab === 'members' && !itemId) return { name: 'members', projectId };
  if (tab === 'audit' && !itemId) return { name: 'audit', projectId };
  if (tab === 'agents')
    return itemId ? { name: 'agent', projectId, agentId: itemId } : { name: 'agents', projectId };
  return { name: 'notFound' };
}

/** The path (relative to the console's root) and query of a route: `parseRoute`'s inverse. */
export function routePath(route: Route): string {
  const project = (projectId: string, tab: ProjectTab) =>
    `projects/${encodeURIComponent(projectId)}/${TAB_SEGMENT[tab]}`;
  switch (route.name) {
    case 'signin':
    case 'signup':
    case 'invitation':
    case 'admin':
      return route.name;
    case 'projects':
    case 'notFound':
      return 'projects';
    case 'sessions':
      return `${project(route.projectId, 'sessions')}${searchOf({ status: route.status }, route.offset)}`;
    case 'runs':
      return `${project(route.projectId, 'runs')}${searchOf({ agent: route.agentId, status: route.status }, route.offset)}`;
    case 'run':
      return `${project(route.projectId, 'runs')}/${encodeURIComponent(route.runId)}`;
    case 'session':
      return `${project(route.projectId, 'sessions')}/${encodeURIComponent(route.sessionId)}`;
    case 'agent':
      return `${project(route.projectId, 'agents')}/${encodeURIComponent(route.agentId)}`;
    case 'stats':
    case 'agents':
    case 'apiKeys':
    case 'members':
    case 'audit':
      return project(route.projectId, route.name);
  }
}

/** The project a route is inside, if any. */
export function routeProjectId(route: Route): string | undefined {
  return 'projectId' in route ? route.projectId : undefined;
}

/**
 * A parameter of an address's fragment (`#token=bdi_…`): invitation links carry their token there,
 * so it reaches no server log. `undefined` when absent or empty.
 */
export function fragmentParam(hash: string, name: string): string | undefined {
  return new URLSearchParams(hash.replace(/^#/, '')).get(name) || undefined;
}
