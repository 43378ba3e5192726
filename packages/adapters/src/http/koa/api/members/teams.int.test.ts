import {
  assertProblem,
  createTestApp,
  type TestApp,
  type TestAppOptions,
  type TestUser,
} from '@browserdeck/testing/adapters';
import { afterEach, describe, expect, it } from 'vitest';

/**
 * SPEC §17 over HTTP: sign-up modes, what a viewer reads, the audit log with its actors, and what an
 * operator's disable ends. The role of every route is the route matrix's (routeAuthorization).
 */
const OPERATOR = 'operator@example.com';
const PASSWORD = 'correct horse battery staple';
const SECRET = 's3cret-value-never-shown';

let t: TestApp;
afterEach(() => t?.close());

async function start(options: TestAppOptions = {}) {
  t = await createTestApp({ ...options, access: { adminEmails: [OPERATOR], ...options.access } });
}

const signUp = (email: string, invitation?: string) =>
  t.request('/v1/auth/signup', {
    method: 'POST',
    json: { email, password: PASSWORD, ...(invitation === undefined ? {} : { invitation }) },
  });
const signIn = (email: string, password = PASSWORD) =>
  t.request('/v1/auth/signin', { method: 'POST', json: { email, password } });

async function json(res: Response, status: number): Promise<Record<string, unknown>> {
  expect(res.status, await res.clone().text()).toBe(status);
  return (await res.json()) as Record<string, unknown>;
}

async function invite(by: TestUser, projectId: string, email: string, role: string) {
  const res = await t.request(`/v1/projects/${projectId}/members`, {
    method: 'POST',
    token: by.accessToken,
    json: { email, role },
  });
  return (await json(res, 201)) as { id: string; token: string; url: string; role: string };
}

/** A new account that joined `projectId` with `role`. */
async function member(owner: TestUser, projectId: string, role: string): Promise<TestUser> {
  const user = await t.signUpAndIn();
  const { token } = await invite(owner, projectId, user.email, role);
  await json(
    await t.request(`/v1/invitations/${token}:accept`, { method: 'POST', token: user.accessToken }),
    200,
  );
  return user;
}

describe('sign-up modes (SIGNUP)', () => {
  it('closed: refuses a sign-up with 403 signup_closed and stores nothing; an operator’s invitation admits once', async () => {
    await start({ access: { signup: 'closed' } });
    await assertProblem(await signUp('walk-in@example.com'), 403, 'signup_closed');
    expect(await t.users.findByEmail('walk-in@example.com')).toBeNull();

    // The operator is always admitted, so a closed installation gets its first account.
    await json(await signUp(OPERATOR), 201);
    const operator = await json(await signIn(OPERATOR), 200);
    const invited = await json(
      await t.request('/v1/admin/users', {
        method: 'POST',
        token: operator.access_token as string,
        json: { email: 'newcomer@example.com' },
      }),
      201,
    );
    expect(invited.url).toBe(`${t.baseUrl}/console/signup#invitation=${invited.token}`);
    expect(invited.role).toBeNull();

    // A project invitation does not open a closed installation; the operator's does, for its e-mail only.
    await assertProblem(await signUp('other@example.com', invited.token as string), 403, 'signup_closed');
    await json(await signUp('newcomer@example.com', invited.token as string), 201);
    await json(await signIn('newcomer@example.com'), 200);
    // Spent: it admits nobody twice.
    await assertProblem(await signUp('newcomer2@example.com', invited.token as string), 403, 'signup_closed');
  });

  it('invite: needs an open invitation for the e-mail; a malformed token is a 400', async () => {
    await start({ access: { signup: 'invite' } });
    await json(await signUp(OPERATOR), 201);
    const owner = { ...((await json(await signIn(OPERATOR), 200)) as Record<string, string>) };
    const projectRes = await t.request('/v1/projects', {
      method: 'POST',
      token: owner.access_token,
      json: { name: 'Team' },
    });
    const projectId = (await json(projectRes, 201)).id as string;
    const ownerUser = { accessToken: owner.access_token } as TestUser;

    await assertProblem(await signUp('bob@example.com'), 403, 'signup_closed');
    const { token } = await invite(ownerUser, projectId, 'bob@example.com', 'developer');
    await assertProblem(await signUp('mallory@example.com', token), 403, 'signup_closed');
    await assertProblem(await signUp('bob@example.com', 'bdi_short'), 400, 'validation_failed');
    expect(await t.users.findByEmail('mallory@example.com')).toBeNull();

    await json(await signUp('bob@example.com', token), 201);
    const bob = await json(await signIn('bob@example.com'), 200);
    // A project invitation stays for its accept link, which joins the project with its role.
    const accepted = await json(
      await t.request(`/v1/invitations/${token}:accept`, {
        method: 'POST',
        token: bob.access_token as string,
      }),
      200,
    );
    expect(accepted).toMatchObject({ id: projectId, role: 'developer' });
    const listed = await json(await t.request('/v1/projects', { token: bob.access_token as string }), 200);
    expect(listed).toMatchObject([{ id: projectId, role: 'developer' }]);
  });
});

describe('a viewer never reads a secret value', () => {
  it('masks session env, agent envVars and the connect URLs’ signing key, for a viewer member and a viewer key', async () => {
    await start();
    const owner = await t.signUpAndIn('owner@example.com');
    const projectId = await t.createProject(owner);
    const scope = `/v1/${t.provider.name}/projects/${projectId}`;
    const session = await json(
      await t.request(`${scope}/sessions`, {
        method: 'POST',
        token: owner.accessToken,
        json: { script: 'return 1', env: { TOKEN: SECRET } },
      }),
      201,
    );
    // The provider hands out a connect URL with a signing key, as the local one does.
    t.provider.setConnectUrl(
      session.providerSessionId as string,
      `wss://fake.invalid/connect?signingKey=${SECRET}`,
    );
    await json(await t.request(`${scope}/sessions/${session.id}`, { token: owner.accessToken }), 200);
    const agent = await json(
      await t.request(`${scope}/agents`, {
        method: 'POST',
        token: owner.accessToken,
        json: { name: 'A', envVars: { API_TOKEN: SECRET } },
      }),
      201,
    );
    const viewer = await member(owner, projectId, 'viewer');
    const developer = await member(owner, projectId, 'developer');
    const keyRes = await t.request(`/v1/projects/${projectId}/api-keys`, {
      method: 'POST',
      token: owner.accessToken,
      json: { name: 'read-only', role: 'viewer' },
    });
    const viewerKey = (await json(keyRes, 201)).key as string;

    const reads = [
      `${scope}/sessions/${session.id}`,
      `${scope}/sessions`,
      `${scope}/agents/${agent.id}`,
      `${scope}/agents`,
      `/v1/sessions/${session.id}`,
    ];
    for (const token of [viewer.accessToken, viewerKey]) {
      for (const path of reads) {
        const headers: Record<string, string> = path.startsWith('/v1/sessions')
          ? { 'X-BB-API-Key': token }
          : { Authorization: `Bearer ${token}` };
        if (path.startsWith('/v1/sessions') && token !== viewerKey) continue;
        const res = await t.request(path, { headers });
        const text = await res.clone().text();
        expect(res.status, `${path}: ${text}`).toBe(200);
        expect(text, path).not.toContain(SECRET);
        expect(text, path).toContain('********');
      }
    }
    const asViewer = await json(
      await t.request(`${scope}/sessions/${session.id}`, { token: viewer.accessToken }),
      200,
    );
    expect(asViewer.userMetadata).toEqual({ script: 'return 1', env: { TOKEN: '********' } });
    expect(asViewer.connectUrl).toBe('wss://fake.invalid/connect?signingKey=********');
    const agentAsViewer = await json(
      await t.request(`${scope}/agents/${agent.id}`, { token: viewer.accessToken }),
      200,
    );
    expect(agentAsViewer.envVars).toEqual({ API_TOKEN: '********' });

    // A developer reads them in clear; the stored values are untouched.
    const asDeveloper = await json(
      await t.request(`${scope}/sessions/${session.id}`, { token: developer.accessToken }),
      200,
    );
    expect(asDeveloper.userMetadata).toEqual({ script: 'return 1', env: { TOKEN: SECRET } });
    expect(
      (await json(await t.request(`${scope}/agents/${agent.id}`, { token: developer.accessToken }), 200))
        .envVars,
    ).toEqual({ API_TOKEN: SECRET });
  });
});

describe('the audit log', () => {
  it('records each change with its actor, request id and address; admins read it paged, newest first', async () => {
    await start();
    const owner = await t.signUpAndIn('owner@example.com');
    const projectId = await t.createProject(owner);
    const dev = await member(owner, projectId, 'developer');
    const keyRes = await t.request(`/v1/projects/${projectId}/api-keys`, {
      method: 'POST',
      token: owner.accessToken,
      json: { name: 'ci' },
    });
    const key = await json(keyRes, 201);
    const created = await t.request(`/v1/${t.provider.name}/projects/${projectId}/sessions`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key.key}`, 'X-Request-Id': 'audit-request-1' },
      json: {},
    });
    const session = await json(created, 201);
    await json(
      await t.request(`/v1/projects/${projectId}/members/${dev.id}`, {
        method: 'PATCH',
        token: owner.accessToken,
        json: { role: 'viewer' },
      }),
      200,
    );

    const audit = (query = '') =>
      t.request(`/v1/projects/${projectId}/audit${query}`, { token: owner.accessToken });
    const all = (await json(await audit(), 200)) as {
      entries: Array<Record<string, unknown>>;
      nextCursor: null;
    };
    expect(all.nextCursor).toBeNull();
    expect(all.entries.map((entry) => entry.action)).toEqual([
      'member.role_change',
      'session.create',
      'api_key.create',
      'member.join',
      'member.invite',
      'project.create',
    ]);
    expect(all.entries[1]).toMatchObject({
      actor: { type: 'apiKey', id: key.id, name: 'ci' },
      target: { type: 'session', id: session.id },
      requestId: 'audit-request-1',
    });
    expect(all.entries[1]?.ip).toMatch(/127\.0\.0\.1$/);
    expect(JSON.stringify(all)).not.toContain(key.key as string);
    expect(all.entries[0]).toMatchObject({
      actor: { type: 'user', id: owner.id, email: 'owner@example.com' },
      target: { type: 'user', id: dev.id },
    });
    expect(all.entries[3]).toMatchObject({ actor: { type: 'user', id: dev.id } });

    const first = (await json(await audit('?limit=4'), 200)) as { entries: unknown[]; nextCursor: string };
    expect(first.entries).toEqual(all.entries.slice(0, 4));
    const rest = await json(await audit(`?limit=4&cursor=${encodeURIComponent(first.nextCursor)}`), 200);
    expect(rest).toEqual({ entries: all.entries.slice(4), nextCursor: null });

    await assertProblem(await audit('?limit=0'), 400, 'validation_failed');
    await assertProblem(
      await t.request(`/v1/projects/${projectId}/audit`, { token: dev.accessToken }),
      403,
      'forbidden_for_role',
    );
    // The stored rows are the answer: nothing kept but what the route shows.
    expect((await t.auditLog.list(projectId, { limit: 200 })).entries).toHaveLength(6);
  });
});

describe('operators (ADMIN_EMAILS)', () => {
  it('disable ends the account’s tokens, keys, sign-ins and sessions at once; enable restores them', async () => {
    await start();
    const operator = await t.signUpAndIn(OPERATOR);
    const alice = await t.signUpAndIn('alice@example.com');
    const projectId = await t.createProject(alice);
    const key = await t.createApiKey(alice, projectId);
    const scope = `/v1/${t.provider.name}/projects/${projectId}/sessions`;
    const session = await json(
      await t.request(scope, { method: 'POST', token: alice.accessToken, json: {} }),
      201,
    );

    await assertProblem(
      await t.request('/v1/admin/users', { token: alice.accessToken }),
      403,
      'operator_only',
    );
    await assertProblem(
      await t.request(`/v1/admin/users/${operator.id}:disable`, { method: 'POST', token: alice.accessToken }),
      403,
      'operator_only',
    );

    const disabled = await json(
      await t.request(`/v1/admin/users/${alice.id}:disable`, { method: 'POST', token: operator.accessToken }),
      200,
    );
    expect(disabled).toMatchObject({ id: alice.id, operator: false });
    expect(disabled.disabledAt).toEqual(expect.any(String));
    await assertProblem(
      await t.request('/v1/projects', { token: alice.accessToken }),
      403,
      'account_disabled',
    );
    await assertProblem(await t.request(scope, { token: key }), 403, 'account_disabled');
    await assertProblem(await signIn('alice@example.com', alice.password), 403, 'account_disabled');
    const stored = await t.sessions.findInProject(projectId, session.id as string);
    expect(stored?.isActive).toBe(false);
    expect(t.provider.calls.filter((call) => call.op === 'release')).toHaveLength(1);

    const accounts = (await json(
      await t.request('/v1/admin/users', { token: operator.accessToken }),
      200,
    )) as {
      accounts: Array<{
        id: string;
        disabledAt: string | null;
        projects: unknown[];
        usage: { sessions: number };
      }>;
    };
    expect(accounts.accounts.find((a) => a.id === alice.id)).toMatchObject({
      disabledAt: disabled.disabledAt,
      projects: [{ id: projectId, role: 'owner' }],
      usage: { sessions: 1 },
    });

    await json(
      await t.request(`/v1/admin/users/${alice.id}:enable`, { method: 'POST', token: operator.accessToken }),
      200,
    );
    const again = await json(await signIn('alice@example.com', alice.password), 200);
    await json(await t.request('/v1/projects', { token: again.access_token as string }), 200);
    await json(await t.request(scope, { token: key }), 200);

    // The last operator cannot switch themselves off.
    await assertProblem(
      await t.request(`/v1/admin/users/${operator.id}:disable`, {
        method: 'POST',
        token: operator.accessToken,
      }),
      409,
      'last_operator',
    );
    const actions = t.auditLog
      .entries()
      .filter((e) => e.projectId === null)
      .map((e) => [e.action, e.actor.type]);
    expect(actions).toEqual([
      ['account.enable', 'operator'],
      ['account.disable', 'operator'],
    ]);
  });
});
