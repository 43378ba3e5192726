import type { TestApp, TestRequestInit, TestUser } from './TestApp.ts';

let userCounter = 0;

/**
 * A test app's client: `request` on its base URL, and `signUpAndIn`, `createProject` and
 * `createApiKey` through the API.
 */
export function testAppClient(
  baseUrl: string,
): Pick<TestApp, 'request' | 'signUpAndIn' | 'createProject' | 'createApiKey'> {
  const request = (path: string, init: TestRequestInit = {}): Promise<Response> => {
    const { json, token, ...rest } = init;
    const headers = new Headers(rest.headers);
    if (json !== undefined) headers.set('Content-Type', 'application/json');
    if (token !== undefined) headers.set('Authorization', `Bearer ${token}`);
    const body = json !== undefined ? JSON.stringify(json) : rest.body;
    return fetch(`${baseUrl}${path}`, { ...rest, headers, body });
  };

  const signUpAndIn = async (
    email = `user${++userCounter}@example.com`,
    password = 'correct horse',
  ): Promise<TestUser> => {
    const signUp = await request('/v1/auth/signup', { method: 'POST', json: { email, password } });
    if (signUp.status !== 201) throw new Error(`sign-up failed: ${signUp.status} ${await signUp.text()}`);
    const signIn = await request('/v1/auth/signin', { method: 'POST', json: { email, password } });
    if (signIn.status !== 200) throw new Error(`sign-in failed: ${signIn.status} ${await signIn.text()}`);
    const grant = (await signIn.json()) as {
      access_token: string;
      refresh_token: string;
      user: { id: string };
    };
    return {
      id: grant.user.id,
      email,
      password,
      accessToken: grant.access_token,
      refreshToken: grant.refresh_token,
    };
  };

  const created = async (path: string, token: string, json: unknown): Promise<Record<string, unknown>> => {
    const res = await request(path, { method: 'POST', token, json });
    if (res.status !== 201) throw new Error(`POST ${path} failed: ${res.status} ${await res.text()}`);
    return (await res.json()) as Record<string, unknown>;
  };
  const createProject = async (user: TestUser, name = 'Project'): Promise<string> =>
    (await created('/v1/projects', user.accessToken, { name })).id as string;
  const createApiKey = async (user: TestUser, projectId: string, name = 'sdk'): Promise<string> =>
    (await created(`/v1/projects/${projectId}/api-keys`, user.accessToken, { name })).key as string;

  return { request, signUpAndIn, createProject, createApiKey };
}
