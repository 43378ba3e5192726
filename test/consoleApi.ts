import type { Credentials } from './consoleFlows.ts';

/**
 * The few public HTTP API calls (http-api.md §3, §5) that set the scene the console then shows, for
 * the console's end-to-end test, screenshots and benchmark.
 */

/** Answers of the public HTTP API, for setting a scene the console then shows. */
export type ApiCaller = <T>(method: string, path: string, body?: unknown) => Promise<T>;

/** Signs in over HTTP (http-api.md §3) and returns a caller with the access token. */
export async function apiSignIn(url: string, who: Credentials): Promise<ApiCaller> {
  const answer = await fetch(`${url}/v1/auth/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(who),
  });
  if (answer.status !== 200) throw new Error(`sign-in: ${answer.status} ${await answer.text()}`);
  const { access_token: token } = (await answer.json()) as { access_token: string };
  return async <T>(method: string, path: string, body?: unknown) => {
    const reply = await fetch(`${url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!reply.ok) throw new Error(`${method} ${path}: ${reply.status} ${await reply.text()}`);
    return (await reply.json()) as T;
  };
}

/** Signs up over HTTP and signs in, with the default project `sync` makes. */
export async function apiSignUp(url: string, who: Credentials): Promise<ApiCaller> {
  const answer = await fetch(`${url}/v1/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(who),
  });
  if (answer.status !== 201) throw new Error(`sign-up: ${answer.status} ${await answer.text()}`);
  const call = await apiSignIn(url, who);
  await call('POST', '/v1/auth/sync');
  return call;
}

/** Creates `count` sessions one after another in a project, each released at once (http-api.md §5). */
export async function startAndReleaseSessions(
  call: ApiCaller,
  projectId: string,
  count: number,
  name = (i: number) => `Run ${i + 1}`,
): Promise<void> {
  const base = `/v1/cloudbrowser/projects/${projectId}/sessions`;
  for (let i = 0; i < count; i++) {
    const session = await call<{ id: string }>('POST', base, { name: name(i) });
    await call('POST', `${base}/${session.id}:release`);
  }
}
