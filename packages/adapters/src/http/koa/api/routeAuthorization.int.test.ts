import { readFile } from 'node:fs/promises';
import { type ErrorCode, PROJECT_ROLES, type ProjectRole } from '@browserdeck/domain';
import {
  assertProblem,
  createTestApp,
  extensionZip,
  manifestJson,
  type TestApp,
  type TestUser,
} from '@browserdeck/testing/adapters';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OpenApiDocument } from '../kernel/openapi/OpenApiDocument.ts';
import { fileBodySpec } from '../kernel/routing/fileBody.ts';
import type { AnyRoute } from '../kernel/routing/RouteDefinition.ts';
import { presentProject } from './projects/presentProject.ts';

/**
 * The route matrix: who may call each authenticated route. What a project API key may do on it
 * (http-api.md §12): `work` inside its own project, or nothing (`user`: a user's access token only,
 * 403 `forbidden_for_api_key` for a key). Every authenticated route of the table must be listed, so
 * a new route is classified when it is added, and its documented `security` must say the same. And
 * each project role (SPEC §17) on every route that declares its least role: below it 403
 * `forbidden_for_role`, at it the route works; the OpenAPI document states the same role.
 */
const KEY_ACCESS: Readonly<Record<string, 'work' | 'user'>> = {
  signOut: 'user',
  getCurrentUser: 'user',
  syncUser: 'user',
  createProject: 'user',
  listProjects: 'work',
  getProject: 'work',
  updateProject: 'user',
  archiveProject: 'user',
  deleteProject: 'user',
  createSession: 'work',
  listSessions: 'work',
  getSessionStats: 'work',
  getSession: 'work',
  releaseSession: 'work',
  getSessionLogs: 'work',
  getSessionHar: 'work',
  getSessionReplay: 'work',
  getSessionReplayPlaylist: 'work',
  getSessionReplayVideo: 'work',
  getSessionReplaySegment: 'work',
  getSessionLiveUrls: 'work',
  getSessionDownloads: 'work',
  uploadSessionFile: 'work',
  uploadExtension: 'work',
  listExtensions: 'work',
  getExtension: 'work',
  deleteExtension: 'work',
  createAgent: 'work',
  listAgents: 'work',
  getAgent: 'work',
  updateAgent: 'work',
  deleteAgent: 'work',
  startAgentRun: 'work',
  startSessionRun: 'work',
  listRuns: 'work',
  getRun: 'work',
  cancelRun: 'work',
  getRunLogs: 'work',
  streamRunLogs: 'work',
  createApiKey: 'user',
  listApiKeys: 'user',
  revokeApiKey: 'user',
  listMembers: 'work',
  inviteMember: 'user',
  changeMemberRole: 'user',
  removeMember: 'user',
  listInvitations: 'user',
  revokeInvitation: 'user',
  acceptInvitation: 'user',
  transferProject: 'user',
  listAuditEntries: 'user',
  listAccounts: 'user',
  inviteAccount: 'user',
  disableAccount: 'user',
  enableAccount: 'user',
  getUsage: 'user',
};

/** The world's owner is the installation's operator, so the operators' routes work for them. */
const OPERATOR_EMAIL = 'matrix-operator@example.com';

/** A valid body for each route whose body is required. */
const BODIES: Readonly<Record<string, (w: World) => unknown>> = {
  createProject: () => ({ name: 'Made by the matrix' }),
  updateProject: () => ({ name: 'Renamed by the matrix' }),
  createAgent: () => ({ name: 'Matrix agent' }),
  updateAgent: () => ({ description: 'Changed by the matrix' }),
  createApiKey: () => ({ name: 'Matrix key' }),
  inviteMember: () => ({ email: 'invited-by-the-matrix@example.com', role: 'developer' }),
  changeMemberRole: () => ({ role: 'viewer' }),
  transferProject: (w) => ({ userId: w.target.id }),
  inviteAccount: () => ({ email: 'new-account@example.com' }),
};

/** A valid file for each route whose body is an uploaded file. */
const EXTENSION_ZIP = await extensionZip({ 'manifest.json': manifestJson() });
const FILES: Readonly<Record<string, { bytes: Uint8Array; name: string }>> = {
  uploadExtension: { bytes: EXTENSION_ZIP, name: 'matrix.zip' },
  uploadSessionFile: { bytes: new TextEncoder().encode('matrix upload'), name: 'matrix.txt' },
};

/** The two ways to send a key. */
const STYLES = [
  ['Authorization: Bearer', (key: string): Record<string, string> => ({ Authorization: `Bearer ${key}` })],
  ['X-BB-API-Key', (key: string): Record<string, string> => ({ 'X-BB-API-Key': key })],
] as const;

const HOUR = 3_600_000;

/**
 * The routes under test: every authenticated route of the table that Browserdeck documents. The
 * Browserbase-compatible routes (undocumented, Browserbase's error shape) are tested with its SDK.
 */
const probe = await createTestApp({ access: { adminEmails: [OPERATOR_EMAIL] } });
const TABLE = probe.browserdeck.http.routes;
await probe.close();
const ROUTES = TABLE.filter((route) => route.auth !== 'none' && !route.undocumented);

const label = (route: AnyRoute) => `${route.operationId}: ${route.method} ${route.path}`;
const template = (path: string) => path.replace(/\{[^}]+\}/g, '{}');

/** Whether another route of the table, chosen by these request headers (`when`), serves this request. */
function servedElsewhere(route: AnyRoute, headers: Record<string, string>): boolean {
  const lower = Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]),
  );
  return TABLE.some(
    (other) =>
      other !== route &&
      other.method === route.method &&
      template(other.path) === template(route.path) &&
      other.when?.(lower) === true,
  );
}

/** The names of a route's path parameters. */
function paramNames(route: AnyRoute): string[] {
  return Object.keys((route.params as { shape?: Record<string, unknown> } | undefined)?.shape ?? {});
}

/** One user's projects, with what their routes need, and keys of every kind. */
interface World {
  owner: TestUser;
  /** The project the routes are called on, with a session, an agent and keys. */
  project: string;
  session: string;
  /** A session of the project that has ended, with its recording made (the replay routes'). */
  recorded: string;
  agent: string;
  /** A run of the agent, ended. */
  run: string;
  /** An extension uploaded to the project. */
  extension: string;
  /** An archived project of the same owner, with a key made before it was archived. */
  archived: string;
  /** A member of the project with each role but the owner's (who is `owner`). */
  members: Record<Exclude<ProjectRole, 'owner'>, TestUser>;
  /** Another `developer` member: whom the member routes change, remove or hand the project to. */
  target: TestUser;
  /** An open invitation to the project. */
  invitation: string;
  /** The token of an invitation of the owner to another user's project. */
  incoming: string;
  keys: {
    own: string;
    revoked: string;
    /** Expires an hour after the world is made. */
    expiring: string;
    /** Only the target of `…/api-keys/{key_id}`. */
    spareId: string;
    /** A key of another project of the same owner. */
    sameOwnersOtherProject: string;
    /** A key of another user's project. */
    otherUsers: string;
    archivedProject: string;
    /** The project's key with the narrower `viewer` role. */
    viewer: string;
  };
}

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp({ access: { adminEmails: [OPERATOR_EMAIL] } });
});
afterEach(() => t.close());

const json = async (res: Response, status: number) => {
  expect(res.status, await res.clone().text()).toBe(status);
  return res.json() as Promise<Record<string, unknown>>;
};

async function userCall(user: TestUser, method: string, path: string, body?: unknown) {
  return t.request(path, { method, token: user.accessToken, ...(body === undefined ? {} : { json: body }) });
}

async function newProject(user: TestUser, name: string): Promise<string> {
  return (await json(await userCall(user, 'POST', '/v1/projects', { name }), 201)).id as string;
}

async function newKey(user: TestUser, project: string, body: unknown = { name: 'k' }) {
  const created = await json(await userCall(user, 'POST', `/v1/projects/${project}/api-keys`, body), 201);
  return { key: created.key as string, id: created.id as string };
}

/** Invites a new user to `project` with `role` (by `inviter`) and has them accept; the new member. */
async function newMember(inviter: TestUser, project: string, role: string): Promise<TestUser> {
  const member = await t.signUpAndIn();
  const email = (await t.users.findById(member.id))?.email;
  const token = (await invite(inviter, project, email ?? '', role)).token;
  await json(await userCall(member, 'POST', `/v1/invitations/${token}:accept`), 200);
  return member;
}

async function invite(inviter: TestUser, project: string, email: string, role: string) {
  const created = await json(
    await userCall(inviter, 'POST', `/v1/projects/${project}/members`, { email, role }),
    201,
  );
  return { id: created.id as string, token: created.token as string };
}

async function world(): Promise<World> {
  const owner = await t.signUpAndIn(OPERATOR_EMAIL);
  const project = await newProject(owner, 'Target');
  const scope = `/v1/${t.provider.name}/projects/${project}`;
  // With scripts, so that runs can start on both.
  const script = 'return 1';
  const session = (await json(await userCall(owner, 'POST', `${scope}/sessions`, { script }), 201))
    .id as string;
  const recorded = (await json(await userCall(owner, 'POST', `${scope}/sessions`, {}), 201)).id as string;
  await json(await userCall(owner, 'POST', `${scope}/sessions/${recorded}:release`), 200);
  const agent = (await json(await userCall(owner, 'POST', `${scope}/agents`, { name: 'A', script }), 201))
    .id as string;
  const runPath = `${scope}/agents/${agent}/runs`;
  const run = (await json(await userCall(owner, 'POST', runPath, { wait: 30 }), 201)).id as string;
  const upload = new FormData();
  upload.append('file', new Blob([EXTENSION_ZIP], { type: 'application/zip' }), 'world.zip');
  const extensionRes = await t.request(`/v1/projects/${project}/extensions`, {
    method: 'POST',
    token: owner.accessToken,
    body: upload,
  });
  const extension = (await json(extensionRes, 201)).id as string;
  const own = await newKey(owner, project);
  const revoked = await newKey(owner, project);
  expect((await userCall(owner, 'DELETE', `/v1/projects/${project}/api-keys/${revoked.id}`)).status).toBe(
    204,
  );
  const expiresAt = new Date(t.clock.now().getTime() + HOUR).toISOString();
  const expiring = await newKey(owner, project, { name: 'expiring', expiresAt });
  const spare = await newKey(owner, project);
  const sameOwnersOtherProject = await newKey(owner, await newProject(owner, 'Other'));
  const archived = await newProject(owner, 'Archived');
  const archivedKey = await newKey(owner, archived);
  await json(await userCall(owner, 'POST', `/v1/projects/${archived}:archive`), 200);
  const stranger = await t.signUpAndIn();
  const theirs = await newProject(stranger, 'Theirs');
  const otherUsers = await newKey(stranger, theirs);
  const viewerKey = await newKey(owner, project, { name: 'read-only', role: 'viewer' });
  const members = {
    viewer: await newMember(owner, project, 'viewer'),
    developer: await newMember(owner, project, 'developer'),
    admin: await newMember(owner, project, 'admin'),
  };
  const target = await newMember(owner, project, 'developer');
  const invitation = (await invite(owner, project, 'pending@example.com', 'viewer')).id;
  const incoming = (await invite(stranger, theirs, OPERATOR_EMAIL, 'viewer')).token;
  return {
    owner,
    project,
    session,
    recorded,
    agent,
    run,
    extension,
    archived,
    members,
    target,
    invitation,
    incoming,
    keys: {
      own: own.key,
      revoked: revoked.key,
      expiring: expiring.key,
      spareId: spare.id,
      sameOwnersOtherProject: sameOwnersOtherProject.key,
      otherUsers: otherUsers.key,
      archivedProject: archivedKey.key,
      viewer: viewerKey.key,
    },
  };
}

/** The route's path with valid values for its parameters, in project `project` of the world. */
function pathOf(route: AnyRoute, w: World, project: string): string {
  const values: Record<string, string> = {
    provider: t.provider.name,
    project_id: project,
    // A recording's files are served once its session has ended.
    session_id: route.path.includes('/replay') ? w.recorded : w.session,
    page_id: '0',
    segment: 'seg_000.ts',
    agent_id: w.agent,
    run_id: w.run,
    key_id: w.keys.spareId,
    extension_id: w.extension,
    user_id: w.target.id,
    invitation_id: w.invitation,
    token: w.incoming,
  };
  let path = route.path;
  for (const name of paramNames(route)) {
    const value = values[name];
    if (value === undefined) throw new Error(`${label(route)}: give the matrix a value for {${name}}`);
    path = path.replace(`{${name}}`, value);
  }
  return path;
}

/** Sends a valid request to the route with these credential headers. */
function send(route: AnyRoute, w: World, path: string, headers: Record<string, string>): Promise<Response> {
  const init: RequestInit & { json?: unknown } = { method: route.method, headers };
  if (fileBodySpec(route.body)) {
    const file = FILES[route.operationId];
    if (!file) throw new Error(`${label(route)}: give the matrix a valid file`);
    const form = new FormData();
    form.append(fileBodySpec(route.body)!.field, new Blob([file.bytes]), file.name);
    init.body = form;
  } else if (route.body && !route.body.safeParse(undefined).success) {
    const body = BODIES[route.operationId];
    if (!body) throw new Error(`${label(route)}: give the matrix a valid body`);
    init.json = body(w);
  }
  return t.request(path, init);
}

/** The status the route answers on success (each documents exactly one). */
function successStatus(route: AnyRoute): number {
  const statuses = Object.keys(route.responses).map(Number);
  expect(statuses, label(route)).toHaveLength(1);
  return statuses[0] as number;
}

async function expectProblem(res: Promise<Response>, status: number, code: ErrorCode, what: string) {
  try {
    await assertProblem(await res, status, code);
  } catch (error) {
    throw new Error(`${what}: ${(error as Error).message}`);
  }
}

describe('the matrix covers every authenticated route', () => {
  it('classifies each of them, and no other', () => {
    expect(ROUTES.map((route) => route.operationId).sort()).toEqual(Object.keys(KEY_ACCESS).sort());
  });

  it('documents the same: apiKey security exactly where a key works, 403 forbidden_for_api_key everywhere', async () => {
    const doc = (await json(await t.request('/openapi.json'), 200)) as unknown as OpenApiDocument;
    expect(doc.components.securitySchemes.apiKey).toEqual({
      type: 'apiKey',
      in: 'header',
      name: 'X-BB-API-Key',
      description: expect.any(String),
    });
    for (const route of ROUTES) {
      const operation = doc.paths[route.path]?.[route.method.toLowerCase()];
      const keys = KEY_ACCESS[route.operationId] === 'work' ? [{ apiKey: [] }] : [];
      expect(operation?.security, label(route)).toEqual([{ bearerAuth: [] }, ...keys]);
      expect(operation?.responses['403'], label(route)).toMatchObject({
        'x-error-codes': expect.arrayContaining(['forbidden_for_api_key']),
      });
    }
  });
});

describe.each(STYLES)('a project API key sent as %s', (_style, credential) => {
  // A Browserbase client's request (X-BB-API-Key, no Authorization) to GET /v1/projects[/{id}] is
  // answered by the Browserbase-compatible API, in its shapes; its own tests cover it there.
  const cases = ROUTES.filter((route) => !servedElsewhere(route, credential('bdk_')));

  it.each(cases.map((route) => [label(route), route] as const))('%s', async (_label, route) => {
    const w = await world();
    const here = pathOf(route, w, w.project);
    const access = KEY_ACCESS[route.operationId];

    await expectProblem(
      send(route, w, here, credential(w.keys.revoked)),
      401,
      'unauthorized',
      'a revoked key',
    );
    if (paramNames(route).includes('project_id')) {
      for (const [what, key] of [
        ['a key of another project of the same user', w.keys.sameOwnersOtherProject],
        ['a key of another user’s project', w.keys.otherUsers],
      ] as const) {
        await expectProblem(send(route, w, here, credential(key)), 403, 'forbidden_for_api_key', what);
      }
    }
    await expectProblem(
      send(route, w, pathOf(route, w, w.archived), credential(w.keys.archivedProject)),
      403,
      'forbidden_for_api_key',
      'a key of an archived project',
    );

    const res = await send(route, w, here, credential(w.keys.own));
    if (access === 'work') {
      expect(res.status, `the project’s own key: ${await res.clone().text()}`).toBe(successStatus(route));
    } else {
      await expectProblem(Promise.resolve(res), 403, 'forbidden_for_api_key', 'the project’s own key');
    }

    // Last: it moves the clock. The key works until its expiry and is refused from then on.
    const listing = `/v1/${t.provider.name}/projects/${w.project}/sessions`;
    expect((await t.request(listing, { headers: credential(w.keys.expiring) })).status).toBe(200);
    t.clock.advance(HOUR);
    await expectProblem(
      send(route, w, here, credential(w.keys.expiring)),
      401,
      'unauthorized',
      'an expired key',
    );
  });
});

describe('a user’s access token keeps working on every authenticated route', () => {
  it.each(ROUTES.map((route) => [label(route), route] as const))('%s', async (_label, route) => {
    const w = await world();
    const res = await send(route, w, pathOf(route, w, w.project), {
      Authorization: `Bearer ${w.owner.accessToken}`,
    });
    expect(res.status, await res.clone().text()).toBe(successStatus(route));
  });
});

/** The routes in one project, which declare the least role they need. */
const ROLE_ROUTES = ROUTES.filter((route) => route.role !== undefined);

describe('each project role on every route that declares one', () => {
  it('is declared on every route in a project, and documented as declared', async () => {
    const inProject = ROUTES.filter((route) => paramNames(route).includes('project_id'));
    expect(inProject.filter((route) => !route.role).map(label)).toEqual([]);
    const doc = (await json(await t.request('/openapi.json'), 200)) as unknown as OpenApiDocument;
    for (const route of ROUTES) {
      const operation = doc.paths[route.path]?.[route.method.toLowerCase()];
      expect(operation?.['x-browserdeck-role'], label(route)).toBe(route.role);
      if (route.role) {
        expect(operation?.responses['403'], label(route)).toMatchObject({
          'x-error-codes': expect.arrayContaining(['forbidden_for_role']),
        });
      }
    }
  });

  it('is the table docs/teams.md shows, route by route', async () => {
    const table = [
      '| route | least role |',
      '|---|---|',
      ...ROUTES.filter((route) => route.role).map(
        (route) => `| \`${route.method} ${route.path}\` | ${route.role} |`,
      ),
    ].join('\n');
    const doc = await readFile(new URL('../../../../../../docs/teams.md', import.meta.url), 'utf8');
    const shown = /<!-- route-roles:start -->\n([\s\S]*?)\n<!-- route-roles:end -->/.exec(doc)?.[1];
    expect(shown, 'docs/teams.md between its route-roles markers').toBe(table);
  });

  it.each(ROLE_ROUTES.map((route) => [label(route), route] as const))('%s', async (_label, route) => {
    const w = await world();
    const here = pathOf(route, w, w.project);
    const least = route.role as ProjectRole;
    // Every role below the least is refused and changes nothing; the least one works.
    for (const role of PROJECT_ROLES) {
      const user = role === 'owner' ? w.owner : w.members[role];
      const res = send(route, w, here, { Authorization: `Bearer ${user.accessToken}` });
      if (PROJECT_ROLES.indexOf(role) < PROJECT_ROLES.indexOf(least)) {
        await expectProblem(res, 403, 'forbidden_for_role', `a ${role}`);
        continue;
      }
      const answer = await res;
      expect(answer.status, `a ${role}: ${await answer.clone().text()}`).toBe(successStatus(route));
      break;
    }
  });

  it.each(
    ROLE_ROUTES.filter((route) => KEY_ACCESS[route.operationId] === 'work').map(
      (route) => [label(route), route] as const,
    ),
  )('a viewer key on %s', async (_label, route) => {
    const w = await world();
    const res = send(route, w, pathOf(route, w, w.project), { Authorization: `Bearer ${w.keys.viewer}` });
    if (route.role === 'viewer') expect((await res).status).toBe(successStatus(route));
    else await expectProblem(res, 403, 'forbidden_for_role', 'a viewer key');
  });
});

describe('GET /v1/projects with a key', () => {
  it('answers the key’s own project alone, and no archived one', async () => {
    const w = await world();
    const own = (await t.projects.findAccess(w.project, w.owner.id))?.project;
    if (!own) throw new Error('the world has no project');
    const headers = { Authorization: `Bearer ${w.keys.own}` };
    expect(await json(await t.request('/v1/projects', { headers }), 200)).toEqual([
      { ...presentProject(own), role: 'developer' },
    ]);
    expect(await json(await t.request('/v1/projects?archived=true', { headers }), 200)).toEqual([]);
    const all = await json(await userCall(w.owner, 'GET', '/v1/projects'), 200);
    expect(all).toHaveLength(2);
  });
});

describe('lastUsedAt', () => {
  it('is set on first use, not rewritten within a minute, and rewritten after it', async () => {
    const owner = await t.signUpAndIn();
    const project = await newProject(owner, 'Used');
    const { key, id } = await newKey(owner, project);
    const sessions = `/v1/${t.provider.name}/projects/${project}/sessions`;
    const lastUsedAt = async () => {
      const keys = (await json(
        await userCall(owner, 'GET', `/v1/projects/${project}/api-keys`),
        200,
      )) as unknown as Array<{ id: string; lastUsedAt: string | null }>;
      const listed = keys.find((k) => k.id === id)?.lastUsedAt;
      const stored = (await t.apiKeys.findInProject(project, id))?.lastUsedAt?.toISOString() ?? null;
      expect(listed).toBe(stored);
      return listed;
    };

    expect(await lastUsedAt()).toBeNull();
    t.clock.advance(5_000);
    expect((await t.request(sessions, { token: key })).status).toBe(200);
    expect(await lastUsedAt()).toBe('2026-01-01T00:00:05.000Z');

    t.clock.advance(30_000);
    expect((await t.request(sessions, { headers: { 'X-BB-API-Key': key } })).status).toBe(200);
    t.clock.advance(29_000);
    expect((await t.request(sessions, { token: key })).status).toBe(200);
    expect(await lastUsedAt()).toBe('2026-01-01T00:00:05.000Z');

    t.clock.advance(2_000);
    expect((await t.request(sessions, { token: key })).status).toBe(200);
    expect(await lastUsedAt()).toBe('2026-01-01T00:01:06.000Z');
  });

  it('is not touched by a user’s access token or by a refused key', async () => {
    const owner = await t.signUpAndIn();
    const project = await newProject(owner, 'Quiet');
    const { key, id } = await newKey(owner, project);
    await userCall(owner, 'GET', `/v1/${t.provider.name}/projects/${project}/sessions`);
    expect((await userCall(owner, 'DELETE', `/v1/projects/${project}/api-keys/${id}`)).status).toBe(204);
    await assertProblem(await t.request('/v1/projects', { token: key }), 401, 'unauthorized');
    expect((await t.apiKeys.findInProject(project, id))?.lastUsedAt).toBeNull();
  });
});

describe('a malformed or unknown bdk_ key', () => {
  it.each(STYLES)('is 401 unauthorized as %s', async (_style, credential) => {
    const owner = await t.signUpAndIn();
    const project = await newProject(owner, 'Guarded');
    const { key } = await newKey(owner, project);
    const sessions = `/v1/${t.provider.name}/projects/${project}/sessions`;
    const last = key.at(-1) === 'A' ? 'B' : 'A';
    for (const [what, candidate] of [
      ['the marker alone', 'bdk_'],
      ['too short', 'bdk_tooShort'],
      ['one character too many', `${key}A`],
      ['well-formed but unknown', `bdk_${'A'.repeat(43)}`],
      ['a known prefix with the wrong rest', `${key.slice(0, -1)}${last}`],
      ['another marker', `bdx_${key.slice(4)}`],
    ] as const) {
      await expectProblem(t.request(sessions, { headers: credential(candidate) }), 401, 'unauthorized', what);
    }
    expect((await t.request(sessions, { headers: credential(key) })).status).toBe(200);
  });
});
