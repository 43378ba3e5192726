import { assertProblem, createTestApp, type TestApp, type TestUser } from '@browserdeck/testing/adapters';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

let t: TestApp;
let alice: TestUser;
let projectId: string;
beforeEach(async () => {
  t = await createTestApp();
  alice = await t.signUpAndIn('alice@example.com');
  const res = await t.request('/v1/projects', {
    method: 'POST',
    token: alice.accessToken,
    json: { name: 'P' },
  });
  projectId = ((await res.json()) as { id: string }).id;
});
afterEach(() => t.close());

const call = (method: string, path: string, json: unknown, token?: string) =>
  t.request(path, { method, json, ...(token ? { token } : {}) });

/** The problem is 400 validation_failed and names exactly `path`. */
async function refused(res: Response, path: string): Promise<void> {
  const problem = await assertProblem(res, 400, 'validation_failed');
  expect(problem.errors?.map((e) => e.path)).toEqual([path]);
}

describe('control characters (http-api.md §10)', () => {
  it.each([
    ['NUL', '\u0000'],
    ['a tab', '\t'],
    ['an escape', '\u001b'],
    ['DEL', '\u007f'],
    ['a C1 control', '\u0085'],
  ])('refuses %s inside project, agent and session names with 400 naming the field', async (_, c) => {
    const token = alice.accessToken;
    await refused(await call('POST', '/v1/projects', { name: `a${c}b` }, token), 'name');
    await refused(await call('PATCH', `/v1/projects/${projectId}`, { name: `a${c}b` }, token), 'name');
    const agents = `/v1/browserbase/projects/${projectId}/agents`;
    await refused(await call('POST', agents, { name: `a${c}b` }, token), 'name');
    const sessions = `/v1/browserbase/projects/${projectId}/sessions`;
    await refused(await call('POST', sessions, { name: `a${c}b` }, token), 'name');
    await refused(await call('POST', sessions, { contextId: `c${c}` }, token), 'contextId');
    expect(t.provider.calls).toEqual([]);
    expect(await t.agents.list(projectId, { activeOnly: false })).toEqual([]);
  });

  it('refuses control characters in sign-up and sign-in e-mails, and NUL in sign-up metadata', async () => {
    const password = 'correct horse';
    await refused(await call('POST', '/v1/auth/signup', { email: 'a\u0000@example.com', password }), 'email');
    await refused(await call('POST', '/v1/auth/signup', { email: 'a\u009b@example.com', password }), 'email');
    await refused(
      await call('POST', '/v1/auth/signin', { email: 'alice\u0000@example.com', password }),
      'email',
    );
    await refused(
      await call('POST', '/v1/auth/signup', {
        email: 'b@example.com',
        password,
        metadata: { x: ['\u0000'] },
      }),
      'metadata',
    );
  });

  it('lets a description hold tabs and line breaks but no NUL; script, env and metadata anything but NUL', async () => {
    const token = alice.accessToken;
    const agents = `/v1/browserbase/projects/${projectId}/agents`;
    await refused(await call('POST', agents, { name: 'a', description: 'x\u0000' }, token), 'description');
    await refused(await call('POST', agents, { name: 'a', description: 'x\u0007' }, token), 'description');
    await refused(await call('POST', agents, { name: 'a', script: '\u0000' }, token), 'script');
    await refused(await call('POST', agents, { name: 'a', envVars: { K: '\u0000' } }, token), 'envVars.K');
    await refused(await call('POST', agents, { name: 'a', metadata: { 'k\u0000': 1 } }, token), 'metadata');
    const sessions = `/v1/browserbase/projects/${projectId}/sessions`;
    await refused(await call('POST', sessions, { script: 'x\u0000' }, token), 'script');
    await refused(await call('POST', sessions, { env: { K: 'v\u0000' } }, token), 'env.K');

    const fields = {
      name: 'Text',
      description: 'line 1\r\n\tline 2',
      script: 'log("\u001b[1m")',
      envVars: { K: 'a\tb\u0001' },
      metadata: { note: 'bell\u0007' },
    };
    const res = await call('POST', agents, fields, token);
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject(fields);
  });
});

describe('e-mail normalisation (http-api.md §10)', () => {
  it('signs up and in with NFKC look-alikes of one address, and refuses the second sign-up', async () => {
    const password = 'correct horse';
    const up = await call('POST', '/v1/auth/signup', { email: ' ＢＯＢ＠Example．com ', password });
    expect(up.status).toBe(201);
    expect(((await up.json()) as { user: { email: string } }).user.email).toBe('bob@example.com');
    const signIn = await call('POST', '/v1/auth/signin', { email: 'bob﹫example.com', password });
    expect(signIn.status).toBe(200);
    await assertProblem(
      await call('POST', '/v1/auth/signup', { email: 'bob@ｅｘａｍｐｌｅ.com', password }),
      409,
      'email_taken',
    );
  });
});
