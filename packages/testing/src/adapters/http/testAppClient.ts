import type { TestApp, TestRequestInit, TestUser } from './TestApp.ts';

let userCounter = 0;

/** A test app's client: `request` on its base URL, and `signUpAndIn` through the API. */
export function testAppClient(baseUrl: string): Pick<TestApp, 'request' | 'signUpAndIn'> {
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

  return { request, signUpAndIn };
}
