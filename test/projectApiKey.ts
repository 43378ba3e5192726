import { expect } from 'vitest';
import type { ServerProcess } from './serverProcess.ts';

/**
 * Signs a user up on `server`, syncs their default project and creates a project API key for it,
 * all through the HTTP API as a user would (http-api.md §3, §12).
 */
export async function givenProjectApiKey(server: Pick<ServerProcess, 'url'>, email: string) {
  const post = async (path: string, body: unknown, token?: string) => {
    const res = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  expect((await post('/v1/auth/signup', { email, password: 'password-123' })).status).toBe(201);
  const signIn = await post('/v1/auth/signin', { email, password: 'password-123' });
  const token = signIn.body.access_token as string;
  const sync = await post('/v1/auth/sync', undefined, token);
  const projectId = (sync.body.project as { id: string }).id;
  const created = await post(`/v1/projects/${projectId}/api-keys`, { name: 'test' }, token);
  expect(created.status).toBe(201);
  return { email, token, projectId, key: created.body.key as string };
}
