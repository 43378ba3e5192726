import { SESSION_STATUSES, type SessionStatus } from '../api/types.ts';

/** The screens of a project, as its navigation lists them. */
export const PROJECT_TABS = ['sessions', 'stats', 'agents', 'apiKeys'] as const;
/** One of `PROJECT_TABS`. */
export type ProjectTab = (typeof PROJECT_TABS)[number];

/** Every screen of the console with its parameters; `notFound` for any other path. */
export type Route =
  | { name: 'signin' }
  | { name: 'signup' }
  | { name: 'projects' }
  | { name: 'sessions'; projectId: string; status: SessionStatus | undefined; offset: number }
  | { name: 'session'; projectId: string; sessionId: string }
  | { name: 'stats'; projectId: string }
  | { name: 'agents'; projectId: string }
  | { name: 'agent'; projectId: string; agentId: string }
  | { name: 'apiKeys'; projectId: string }
  | { name: 'notFound' };

/** The path segment of each project tab. */
const TAB_SEGMENT: Record<ProjectTab, string> = {
  sessions: 'sessions',
  stats: 'stats',
  agents: 'agents',
  apiKeys: 'api-keys',
};

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
  if (first !== 'projects' || rest.length > 0) return { name: 'notFound' };
  if (!projectId) return { name: 'projects' };
  if (!tab || tab === 'sessions') {
    if (itemId) return { name: 'session', projectId, sessionId: itemId };
    const status = query.get('status');
    const offset = Number.parseInt(query.get('offset') ?? '0', 10);
    return {
      name: 'sessions',
      projectId,
      status: SESSION_STATUSES.find((s) => s === status),
      offset: Number.isFinite(offset) && offset > 0 ? offset : 0,
    };
  }
  if (tab === 'stats' && !itemId) return { name: 'stats', projectId };
  if (tab === 'api-keys' && !itemId) return { name: 'apiKeys', projectId };
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
      return route.name;
    case 'projects':
    case 'notFound':
      return 'projects';
    case 'sessions': {
      const query = new URLSearchParams();
      if (route.status) query.set('status', route.status);
      if (route.offset > 0) query.set('offset', String(route.offset));
      const search = query.toString();
      return `${project(route.projectId, 'sessions')}${search ? `?${search}` : ''}`;
    }
    case 'session':
      return `${project(route.projectId, 'sessions')}/${encodeURIComponent(route.sessionId)}`;
    case 'agent':
      return `${project(route.projectId, 'agents')}/${encodeURIComponent(route.agentId)}`;
    case 'stats':
    case 'agents':
    case 'apiKeys':
      return project(route.projectId, route.name);
  }
}

/** The project a route is inside, if any. */
export function routeProjectId(route: Route): string | undefined {
  return 'projectId' in route ? route.projectId : undefined;
}
