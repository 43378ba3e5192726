import Browserbase, {
  AuthenticationError,
  BadRequestError,
  ConflictError,
  NotFoundError,
} from '@browserbasehq/sdk';
import { createTestApp, type TestApp, type TestUser } from '@browserdeck/testing/adapters';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

let t: TestApp;
let alice: TestUser;
let projectId: string;
let key: string;
let bb: Browserbase;

/** Browserbase's invocation, as the API answers it. */
interface Invocation {
  id: string;
  projectId: string;
  functionId: string;
  versionId: string;
  sessionId: string | null;
  status: string;
  params: unknown;
  results: unknown;
  cause: { code: string; message: string } | null;
  [field: string]: unknown;
}

beforeEach(async () => {
  t = await createTestApp();
  alice = await t.signUpAndIn('alice@example.com');
  projectId = await t.createProject(alice, 'F');
  key = await t.createApiKey(alice, projectId);
  // Browserbase's SDK with its two changed lines: a Browserdeck key and this server.
  bb = new Browserbase({ apiKey: key, baseURL: t.baseUrl, maxRetries: 0 });
});
afterEach(() => t.close());

async function newAgent(fields: Record<string, unknown> = {}): Promise<string> {
  const res = await t.request(`/v1/browserbase/projects/${projectId}/agents`, {
    method: 'POST',
    token: alice.accessToken,
    json: { name: 'page-title', script: 'return 1', ...fields },
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

// The SDK (2.21) has no invoke method: its generic `post`/`get` send Browserbase's documented calls.
const invoke = (functionId: string, body: unknown = {}) =>
  bb.post<unknown, Invocation>(`/v1/functions/${functionId}/invoke`, { body });
const invocation = (id: string) => bb.get<unknown, Invocation>(`/v1/functions/invocations/${id}`);

describe('Browserbase Functions: a function is an agent, an invocation an agent run', () => {
  it('invokes a function (202, PENDING) and reads the invocation COMPLETED with its results', async () => {
    t.scriptRunner.willPlay({ hold: true });
    const functionId = await newAgent({ region: 'us-east-1' });
    const { data, response } = await invoke(functionId, {
      params: { url: 'https://example.com' },
      sessionCreateParams: { timeout: 90 },
    }).withResponse();
    expect(response.status).toBe(202);
    expect(data).toEqual({
      id: expect.any(String),
      projectId,
      functionId,
      versionId: functionId,
      sessionId: null,
      status: 'PENDING',
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
      startedAt: null,
      expiresAt: '2026-01-01T00:01:30.000Z',
      endedAt: null,
      region: 'us-east-1',
      params: { url: 'https://example.com' },
      results: null,
      cause: null,
    });
    // It is §11's run: the same row, with the params as its input and the timeout as its deadline.
    expect(await t.runs.findInProject(projectId, data.id)).toMatchObject({
      agentId: functionId,
      input: { url: 'https://example.com' },
      timeoutSec: 90,
    });
    await t.scriptRunner.untilHeld();
    expect(await invocation(data.id)).toMatchObject({ status: 'RUNNING', sessionId: expect.any(String) });
    t.scriptRunner.finish({ kind: 'returned', resultJson: '{"title":"Example Domain"}', exitCode: 0 });
    await expect.poll(async () => (await invocation(data.id)).status).toBe('COMPLETED');
    expect(await invocation(data.id)).toMatchObject({
      results: { title: 'Example Domain' },
      cause: null,
      endedAt: expect.any(String),
    });
  });

  it('answers a failed run as FAILED with its cause', async () => {
    t.scriptRunner.willPlay({ outcome: { kind: 'timed_out', exitCode: null } });
    const { id } = await invoke(await newAgent());
    await expect.poll(async () => (await invocation(id)).status).toBe('FAILED');
    expect((await invocation(id)).cause).toEqual({ code: 'TIMED_OUT', message: expect.any(String) });
  });

  it('refuses what cannot map with a 400 naming it, in Browserbase’s error shape', async () => {
    const functionId = await newAgent();
    const options = invoke(functionId, { sessionCreateParams: { browserSettings: { blockAds: true } } });
    await expect(options).rejects.toBeInstanceOf(BadRequestError);
    await expect(options).rejects.toMatchObject({
      status: 400,
      error: {
        statusCode: 400,
        error: 'Bad Request',
        message: expect.stringMatching(/^sessionCreateParams\.browserSettings: /),
      },
    });
    await expect(invoke(functionId, { params: [1] })).rejects.toMatchObject({
      status: 400,
      error: { message: expect.stringMatching(/^params: must be a JSON object/) },
    });
    const secrets = bb.functions.secrets.list(functionId);
    await expect(secrets).rejects.toBeInstanceOf(BadRequestError);
    await expect(secrets).rejects.toMatchObject({
      error: { message: expect.stringMatching(/secrets are not supported/) },
    });
    await expect(bb.functions.secrets.attach(functionId, { secretId: 's' })).rejects.toBeInstanceOf(
      BadRequestError,
    );
    await expect(bb.functions.secrets.detach(functionId, 's')).rejects.toBeInstanceOf(BadRequestError);
    expect(t.runs.all()).toHaveLength(0);
  });

  it('answers unknown functions and invocations, and runs on a session, as Browserbase’s 404s', async () => {
    await expect(invoke('0190b000-0000-7000-8000-00000000dead')).rejects.toBeInstanceOf(NotFoundError);
    await expect(invoke('not-a-uuid')).rejects.toBeInstanceOf(NotFoundError);
    await expect(invocation('0190b000-0000-7000-8000-00000000dead')).rejects.toBeInstanceOf(NotFoundError);
    const builds = bb.get(`/v1/functions/${await newAgent()}/builds`);
    await expect(builds).rejects.toMatchObject({
      status: 404,
      error: { statusCode: 404, code: 'not_found' },
    });
    const session = await bb.sessions.create({ projectId });
    const res = await t.request(`/v1/browserbase/projects/${projectId}/sessions/${session.id}/runs`, {
      method: 'POST',
      token: alice.accessToken,
      json: { script: 'return 1' },
    });
    const { id } = (await res.json()) as { id: string };
    await expect(invocation(id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it('keeps an agent’s rules: inactive is a 409; a user’s token instead of a key is a 401', async () => {
    await expect(invoke(await newAgent({ name: 'off', active: false }))).rejects.toBeInstanceOf(
      ConflictError,
    );
    const asUser = await t.request(`/v1/functions/${await newAgent({ name: 'on' })}/invoke`, {
      method: 'POST',
      token: alice.accessToken,
      json: {},
    });
    expect(asUser.status).toBe(401);
    expect(await asUser.json()).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
    const wrongKey = new Browserbase({ apiKey: 'bdk_nope', baseURL: t.baseUrl, maxRetries: 0 });
    await expect(wrongKey.get('/v1/functions/invocations/x')).rejects.toBeInstanceOf(AuthenticationError);
  });
});
