import { describe, expect, it } from 'vitest';
import { fragmentParam, parseRoute, type Route, routePath } from './routes.ts';

describe('console routes (history routing below /console/)', () => {
  it('reads every screen from its path and query', () => {
    expect(parseRoute('')).toEqual({ name: 'projects' });
    expect(parseRoute('signin')).toEqual({ name: 'signin' });
    expect(parseRoute('signup')).toEqual({ name: 'signup' });
    expect(parseRoute('projects')).toEqual({ name: 'projects' });
    expect(parseRoute('projects/p1')).toEqual({
      name: 'sessions',
      projectId: 'p1',
      status: undefined,
      offset: 0,
    });
    expect(parseRoute('projects/p1/sessions', '?status=RUNNING&offset=40')).toEqual({
      name: 'sessions',
      projectId: 'p1',
      status: 'RUNNING',
      offset: 40,
    });
    expect(parseRoute('projects/p1/sessions/s1')).toEqual({
      name: 'session',
      projectId: 'p1',
      sessionId: 's1',
    });
    expect(parseRoute('projects/p1/stats')).toEqual({ name: 'stats', projectId: 'p1' });
    expect(parseRoute('projects/p1/agents')).toEqual({ name: 'agents', projectId: 'p1' });
    expect(parseRoute('projects/p1/agents/new')).toEqual({ name: 'agent', projectId: 'p1', agentId: 'new' });
    expect(parseRoute('projects/p1/api-keys')).toEqual({ name: 'apiKeys', projectId: 'p1' });
    expect(parseRoute('projects/p1/runs')).toEqual({
      name: 'runs',
      projectId: 'p1',
      agentId: undefined,
      status: undefined,
      offset: 0,
    });
    expect(parseRoute('projects/p1/runs', '?agent=a1&status=CANCELED&offset=20')).toEqual({
      name: 'runs',
      projectId: 'p1',
      agentId: 'a1',
      status: 'CANCELED',
      offset: 20,
    });
    expect(parseRoute('projects/p1/runs/r1')).toEqual({ name: 'run', projectId: 'p1', runId: 'r1' });
  });

  it('reads the team screens: members, audit log, the invitation page and the operators page', () => {
    expect(parseRoute('projects/p1/members')).toEqual({ name: 'members', projectId: 'p1' });
    expect(parseRoute('projects/p1/audit')).toEqual({ name: 'audit', projectId: 'p1' });
    // The token rides in the fragment, which is no part of the path or the query.
    expect(parseRoute('invitation', '')).toEqual({ name: 'invitation' });
    expect(parseRoute('admin')).toEqual({ name: 'admin' });
    for (const path of ['projects/p1/members/u1', 'projects/p1/audit/x', 'invitation/bdi_x', 'admin/users']) {
      expect(parseRoute(path), path).toEqual({ name: 'notFound' });
    }
  });

  it('reads an invitation token from the fragment of the links the server hands out', () => {
    expect(fragmentParam('#token=bdi_abc-_123', 'token')).toBe('bdi_abc-_123');
    expect(fragmentParam('#invitation=bdi_xyz', 'invitation')).toBe('bdi_xyz');
    expect(fragmentParam('token=bdi_1&x=2', 'token')).toBe('bdi_1');
    expect(fragmentParam('#invitation=bdi_xyz', 'token')).toBeUndefined();
    expect(fragmentParam('#token=', 'token')).toBeUndefined();
    expect(fragmentParam('', 'token')).toBeUndefined();
  });

  it('ignores a status or offset that is not one, and calls anything else not found', () => {
    expect(parseRoute('projects/p1/sessions', '?status=running&offset=-5')).toMatchObject({
      status: undefined,
      offset: 0,
    });
    expect(parseRoute('projects/p1/sessions', '?offset=abc')).toMatchObject({ offset: 0 });
    expect(parseRoute('projects/p1/runs', '?status=COMPLETED&agent=&offset=-1')).toMatchObject({
      agentId: undefined,
      status: undefined,
      offset: 0,
    });
    for (const path of [
      'nowhere',
      'projects/p1/stats/x',
      'projects/p1/what',
      'projects/p1/sessions/s1/extra',
      'projects/p1/runs/r1/logs',
      'signin/x',
    ]) {
      expect(parseRoute(path), path).toEqual({ name: 'notFound' });
    }
  });

  it('writes each route back to the path it is read from', () => {
    const routes: Route[] = [
      { name: 'signin' },
      { name: 'signup' },
      { name: 'projects' },
      { name: 'sessions', projectId: 'p 1', status: undefined, offset: 0 },
      { name: 'sessions', projectId: 'p1', status: 'TIMED_OUT', offset: 20 },
      { name: 'session', projectId: 'p1', sessionId: 's/1' },
      { name: 'stats', projectId: 'p1' },
      { name: 'agents', projectId: 'p1' },
      { name: 'agent', projectId: 'p1', agentId: 'a1' },
      { name: 'apiKeys', projectId: 'p1' },
      { name: 'runs', projectId: 'p1', agentId: undefined, status: undefined, offset: 0 },
      { name: 'runs', projectId: 'p1', agentId: 'a 1', status: 'RUNNING', offset: 40 },
      { name: 'run', projectId: 'p1', runId: 'r/1' },
      { name: 'members', projectId: 'p 1' },
      { name: 'audit', projectId: 'p1' },
      { name: 'invitation' },
      { name: 'admin' },
    ];
    for (const route of routes) {
      const [path, query] = routePath(route).split('?');
      expect(parseRoute(path ?? '', query ? `?${query}` : ''), routePath(route)).toEqual(route);
    }
    expect(routePath({ name: 'sessions', projectId: 'p1', status: 'ERROR', offset: 0 })).toBe(
      'projects/p1/sessions?status=ERROR',
    );
    expect(routePath({ name: 'runs', projectId: 'p1', agentId: 'a1', status: undefined, offset: 0 })).toBe(
      'projects/p1/runs?agent=a1',
    );
    expect(routePath({ name: 'members', projectId: 'p1' })).toBe('projects/p1/members');
    expect(routePath({ name: 'invitation' })).toBe('invitation');
  });
});
