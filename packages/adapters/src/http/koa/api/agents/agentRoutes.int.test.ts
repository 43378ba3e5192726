import { assertProblem, createTestApp, type TestApp, type TestUser } from '@browserdeck/testing/adapters';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OpenApiDocument } from '../../kernel/openapi/OpenApiDocument.ts';
import { AgentSchema } from './agentSchemas.ts';
import type { AgentJson } from './presentAgent.ts';

let t: TestApp;
let alice: TestUser;
let projectId: string;
let agents: string;
beforeEach(async () => {
  t = await createTestApp();
  alice = await t.signUpAndIn('alice@example.com');
  projectId = await newProject('Agents');
  agents = `/v1/browserbase/projects/${projectId}/agents`;
});
afterEach(() => t.close());

const T0 = '2026-01-01T00:00:00.000Z';
const UNKNOWN = '0190b000-0000-7000-8000-00000000dead';

const call = (method: string, path: string, json?: unknown, token = alice.accessToken) =>
  t.request(path, { method, token, ...(json === undefined ? {} : { json }) });

async function newProject(name: string): Promise<string> {
  const res = await t.request('/v1/projects', { method: 'POST', token: alice.accessToken, json: { name } });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

async function create(json: unknown, path = agents): Promise<AgentJson> {
  const res = await call('POST', path, json);
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as AgentJson;
}

const FULL = {
  name: '  Checkout bot ',
  description: 'Buys things',
  script: 'await page.goto("https://shop.example")',
  envVars: { TOKEN: 'secret', MODE: 'fast' },
  providerProjectId: 'bb-project',
  contextId: 'ctx-1',
  extensionId: null,
  region: 'eu-central-1',
  timeoutSec: 1800,
  active: false,
  metadata: { owner: 'team-a', tags: ['x'], nested: { n: 1 } },
};

describe('POST …/agents', () => {
  it('creates an agent with the defaults: 201 with the full resource, stored', async () => {
    const agent = await create({ name: 'Minimal' });
    expect(AgentSchema.strict().parse(agent)).toEqual(agent);
    expect(agent).toEqual({
      id: expect.any(String),
      projectId,
      name: 'Minimal',
      description: '',
      script: '',
      envVars: {},
      providerProjectId: null,
      contextId: null,
      extensionId: null,
      region: 'us-west-2',
      timeoutSec: 300,
      active: true,
      metadata: {},
      createdAt: T0,
      updatedAt: T0,
    });
    expect(await t.agents.findInProject(projectId, agent.id)).toMatchObject({ name: 'Minimal' });
    expect(t.provider.calls).toEqual([]);
  });

  it('stores every field given, the name trimmed', async () => {
    const agent = await create(FULL);
    expect(agent).toEqual({
      ...FULL,
      name: 'Checkout bot',
      id: expect.any(String),
      projectId,
      createdAt: T0,
      updatedAt: T0,
    });
  });

  it('answers 409 agent_name_taken for a name the project has (after trimming); other projects are free', async () => {
    await create({ name: 'Bot' });
    await assertProblem(await call('POST', agents, { name: ' Bot ' }), 409, 'agent_name_taken');
    const other = await newProject('Other');
    await create({ name: 'Bot' }, `/v1/browserbase/projects/${other}/agents`);
  });

  it.each([
    ['a missing name', {}, 'name'],
    ['an empty name after trimming', { name: '  ' }, 'name'],
    ['a name over 200 characters', { name: 'n'.repeat(201) }, 'name'],
    ['an unknown field', { name: 'A', env: { A: '1' } }, 'env'],
    ['a description over 2000 characters', { name: 'A', description: 'd'.repeat(2001) }, 'description'],
    ['a script over 256 KiB', { name: 'A', script: 'é'.repeat(131_073) }, 'script'],
    ['envVars with a bad key', { name: 'A', envVars: { 'BAD-KEY': 'x' } }, 'envVars.BAD-KEY'],
    ['envVars with a value over 8 KiB', { name: 'A', envVars: { A: 'v'.repeat(8193) } }, 'envVars.A'],
    [
      'more than 100 envVars',
      { name: 'A', envVars: Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`K${i}`, ''])) },
      'envVars',
    ],
    ['an empty providerProjectId', { name: 'A', providerProjectId: '' }, 'providerProjectId'],
    ['a contextId that is not a string', { name: 'A', contextId: 5 }, 'contextId'],
    ['an extensionId over 128 characters', { name: 'A', extensionId: 'e'.repeat(129) }, 'extensionId'],
    ['an unknown region', { name: 'A', region: 'mars-1' }, 'region'],
    ['timeoutSec below 60', { name: 'A', timeoutSec: 59 }, 'timeoutSec'],
    ['timeoutSec above 21600', { name: 'A', timeoutSec: 21_601 }, 'timeoutSec'],
    ['a fractional timeoutSec', { name: 'A', timeoutSec: 60.5 }, 'timeoutSec'],
    ['active as a string', { name: 'A', active: 'true' }, 'active'],
    ['metadata that is an array', { name: 'A', metadata: [1] }, 'metadata'],
    ['metadata over 8 KiB', { name: 'A', metadata: { blob: 'b'.repeat(8200) } }, 'metadata'],
    // JSON.parse makes `__proto__` an own key, as it arrives on the wire (zod would drop it silently).
    ['an envVars key __proto__', JSON.parse('{"name":"A","envVars":{"__proto__":"x"}}'), 'envVars.__proto__'],
    [
      'a metadata key __proto__',
      JSON.parse('{"name":"A","metadata":{"__proto__":{"a":1}}}'),
      'metadata.__proto__',
    ],
    [
      'a nested metadata key __proto__',
      JSON.parse('{"name":"A","metadata":{"a":[{"__proto__":1}]}}'),
      'metadata.a.0.__proto__',
    ],
  ])('answers 400 naming the field for %s', async (_label, json, path) => {
    const problem = await assertProblem(await call('POST', agents, json), 400, 'validation_failed');
    expect(problem.errors?.map((e) => e.path)).toContain(path);
    expect(await t.agents.list(projectId, { activeOnly: false })).toEqual([]);
  });
});

describe('GET …/agents', () => {
  it('lists newest first; active_only=true lists the active ones', async () => {
    const a = await create({ name: 'A' });
    t.clock.advance(1000);
    const b = await create({ name: 'B', active: false });
    t.clock.advance(1000);
    const c = await create({ name: 'C' });
    const all = (await (await call('GET', agents)).json()) as AgentJson[];
    expect(all.map((x) => x.id)).toEqual([c.id, b.id, a.id]);
    expect(all[0]).toEqual(c);
    const explicit = (await (await call('GET', `${agents}?active_only=false`)).json()) as AgentJson[];
    expect(explicit.map((x) => x.id)).toEqual([c.id, b.id, a.id]);
    const active = (await (await call('GET', `${agents}?active_only=true`)).json()) as AgentJson[];
    expect(active.map((x) => x.id)).toEqual([c.id, a.id]);
  });

  it.each(['yes', '1', 'TRUE', ''])('answers 400 for active_only=%j', async (value) => {
    const problem = await assertProblem(
      await call('GET', `${agents}?active_only=${value}`),
      400,
      'validation_failed',
    );
    expect(problem.errors).toEqual([{ path: 'active_only', message: 'must be true or false' }]);
  });
});

describe('one agent', () => {
  it('reads an agent; 404 for an unknown id or one of another project; 400 for a bad id', async () => {
    const agent = await create({ name: 'Read me' });
    const res = await call('GET', `${agents}/${agent.id}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(agent);
    await assertProblem(await call('GET', `${agents}/${UNKNOWN}`), 404, 'not_found');
    const other = await newProject('Other');
    await assertProblem(
      await call('GET', `/v1/browserbase/projects/${other}/agents/${agent.id}`),
      404,
      'not_found',
    );
    const problem = await assertProblem(await call('GET', `${agents}/bot`), 400, 'validation_failed');
    expect(problem.errors).toEqual([{ path: 'agent_id', message: 'must be a UUID' }]);
  });

  it('changes only the fields given with PUT', async () => {
    const agent = await create(FULL);
    t.clock.advance(5000);
    const res = await call('PUT', `${agents}/${agent.id}`, {
      description: 'Buys more things',
      envVars: { ONLY: 'this' },
      contextId: null,
      active: true,
    });
    expect(res.status).toBe(200);
    const updated = (await res.json()) as AgentJson;
    expect(updated).toEqual({
      ...agent,
      description: 'Buys more things',
      envVars: { ONLY: 'this' },
      contextId: null,
      active: true,
      updatedAt: '2026-01-01T00:00:05.000Z',
    });
    expect(await (await call('GET', `${agents}/${agent.id}`)).json()).toEqual(updated);
  });

  it('answers 409 agent_name_taken when renaming onto another agent; keeping its own name is fine', async () => {
    await create({ name: 'Taken' });
    const agent = await create({ name: 'Mine' });
    await assertProblem(
      await call('PUT', `${agents}/${agent.id}`, { name: 'Taken' }),
      409,
      'agent_name_taken',
    );
    expect((await call('PUT', `${agents}/${agent.id}`, { name: ' Mine ' })).status).toBe(200);
  });

  it.each([
    ['an empty object', {}, ''],
    ['an unknown field', { timeout: 300 }, 'timeout'],
    ['an empty name', { name: '' }, 'name'],
    ['a null name', { name: null }, 'name'],
    ['a bad region', { region: 'mars-1' }, 'region'],
    ['timeoutSec out of range', { timeoutSec: 10 }, 'timeoutSec'],
  ])('answers 400 to PUT with %s', async (_label, json, path) => {
    const agent = await create({ name: 'Put me' });
    const problem = await assertProblem(
      await call('PUT', `${agents}/${agent.id}`, json),
      400,
      'validation_failed',
    );
    expect(problem.errors?.map((e) => e.path)).toContain(path);
    expect(await (await call('GET', `${agents}/${agent.id}`)).json()).toEqual(agent);
  });

  it('answers 400 to PUT without a body', async () => {
    const agent = await create({ name: 'No body' });
    const problem = await assertProblem(await call('PUT', `${agents}/${agent.id}`), 400, 'validation_failed');
    expect(problem.errors).toEqual([{ path: '', message: 'a JSON body is required' }]);
  });

  it('deletes with 204 and no body; sessions that ran the agent keep their agentId', async () => {
    const agent = await create({ name: 'Doomed' });
    const sessions = `/v1/browserbase/projects/${projectId}/sessions`;
    const session = (await (await call('POST', sessions, { agentId: agent.id })).json()) as { id: string };
    const res = await call('DELETE', `${agents}/${agent.id}`);
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    await assertProblem(await call('GET', `${agents}/${agent.id}`), 404, 'not_found');
    await assertProblem(await call('DELETE', `${agents}/${agent.id}`), 404, 'not_found');
    const kept = await (await call('GET', `${sessions}/${session.id}`)).json();
    expect(kept).toMatchObject({ agentId: agent.id });
    await assertProblem(await call('POST', sessions, { agentId: agent.id }), 404, 'agent_not_found');
  });
});

describe('archived projects, ownership, provider segment and authentication', () => {
  it('answers 409 project_archived to create and update; reads and delete still work', async () => {
    const agent = await create({ name: 'Before' });
    await call('POST', `/v1/projects/${projectId}:archive`);
    await assertProblem(await call('POST', agents, { name: 'After' }), 409, 'project_archived');
    await assertProblem(
      await call('PUT', `${agents}/${agent.id}`, { description: 'x' }),
      409,
      'project_archived',
    );
    expect(await (await call('GET', agents)).json()).toEqual([agent]);
    expect(await (await call('GET', `${agents}/${agent.id}`)).json()).toEqual(agent);
    expect((await call('DELETE', `${agents}/${agent.id}`)).status).toBe(204);
  });

  it("answers 404 on every agent route for another user's project and changes nothing", async () => {
    const agent = await create({ name: 'Private' });
    const bob = await t.signUpAndIn('bob@example.com');
    const one = `${agents}/${agent.id}`;
    await assertProblem(await call('POST', agents, { name: 'Intruder' }, bob.accessToken), 404, 'not_found');
    await assertProblem(await call('GET', agents, undefined, bob.accessToken), 404, 'not_found');
    await assertProblem(await call('GET', one, undefined, bob.accessToken), 404, 'not_found');
    await assertProblem(await call('PUT', one, { name: 'Hacked' }, bob.accessToken), 404, 'not_found');
    await assertProblem(await call('DELETE', one, undefined, bob.accessToken), 404, 'not_found');
    expect(await (await call('GET', agents)).json()).toEqual([agent]);
  });

  it('accepts the alias cloudbrowser and answers 404 for any other provider segment', async () => {
    const agent = await create({ name: 'Aliased' });
    const alias = `/v1/cloudbrowser/projects/${projectId}/agents`;
    expect(await (await call('GET', `${alias}/${agent.id}`)).json()).toEqual(agent);
    expect((await call('POST', alias, { name: 'Via alias' })).status).toBe(201);
    const other = `/v1/other/projects/${projectId}/agents`;
    for (const [method, path, json] of [
      ['POST', other, { name: 'X' }],
      ['GET', other, undefined],
      ['GET', `${other}/${agent.id}`, undefined],
      ['PUT', `${other}/${agent.id}`, { name: 'X' }],
      ['DELETE', `${other}/${agent.id}`, undefined],
    ] as const) {
      await assertProblem(await call(method, path, json), 404, 'not_found');
    }
    expect(await t.agents.findInProject(projectId, agent.id)).not.toBeNull();
  });

  it('requires a bearer token on every agent route', async () => {
    for (const [method, path] of [
      ['POST', agents],
      ['GET', agents],
      ['GET', `${agents}/${UNKNOWN}`],
      ['PUT', `${agents}/${UNKNOWN}`],
      ['DELETE', `${agents}/${UNKNOWN}`],
    ] as const) {
      await assertProblem(await t.request(path, { method }), 401, 'unauthorized');
    }
  });

  it('documents every agent route under the {provider} prefix with the domain limits', async () => {
    const doc = (await (await t.request('/openapi.json')).json()) as OpenApiDocument;
    const prefix = '/v1/{provider}/projects/{project_id}/agents';
    expect(Object.keys(doc.paths[prefix] ?? {}).sort()).toEqual(['get', 'post']);
    expect(Object.keys(doc.paths[`${prefix}/{agent_id}`] ?? {}).sort()).toEqual(['delete', 'get', 'put']);
    expect(doc.paths[prefix]?.post?.requestBody).toMatchObject({
      required: true,
      content: {
        'application/json': {
          schema: {
            additionalProperties: false,
            required: ['name'],
            properties: {
              name: { minLength: 1, maxLength: 200 },
              description: { maxLength: 2000 },
              timeoutSec: { minimum: 60, maximum: 21_600 },
            },
          },
        },
      },
    });
    expect(doc.paths[prefix]?.get?.parameters.map((p) => [p.name, p.in])).toEqual([
      ['provider', 'path'],
      ['project_id', 'path'],
      ['active_only', 'query'],
    ]);
    expect(doc.paths[`${prefix}/{agent_id}`]?.put?.responses['409']).toMatchObject({
      'x-error-codes': ['project_archived', 'agent_name_taken'],
    });
  });
});
