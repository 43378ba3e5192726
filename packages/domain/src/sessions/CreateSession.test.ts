import {
  anAgent,
  anExtension,
  aProject,
  FakeBrowserProvider,
  InMemoryAgentRepository,
  InMemoryAuditLog,
  InMemoryExtensionRepository,
  InMemoryIdempotencyStore,
  InMemoryProjectRepository,
  InMemorySessionRepository,
  ManualClock,
  SequentialIdGenerator,
} from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { asUser } from '../access/Caller.ts';
import type { Agent } from '../agents/Agent.ts';
import type { AgentFields } from '../agents/agentRules.ts';
import { AuditTrail } from '../audit/AuditTrail.ts';
import { DomainError } from '../shared/DomainError.ts';
import { stableStringify } from '../shared/stableStringify.ts';
import { directTransactions } from '../shared/Transactions.ts';
import { BrowserSession } from './BrowserSession.ts';
import { CreateSession, IDEMPOTENCY_LEASE_MS, IDEMPOTENCY_TTL_MS } from './CreateSession.ts';
import type { SessionRequest } from './resolveSessionSettings.ts';
import { DEFAULT_VIEWPORT_HEIGHT, DEFAULT_VIEWPORT_WIDTH } from './sessionRules.ts';

const OWNER = 'owner-1';
const STRANGER = 'owner-2';

/** The zip stored for each extension the tests name: bytes only, the use case never opens it. */
const ZIP = Uint8Array.from([0x50, 0x4b, 3, 4, 0, 255]);

async function setUp(
  options: { loadsExtensions?: boolean; provider?: (clock: ManualClock) => FakeBrowserProvider } = {},
) {
  const clock = new ManualClock('2026-03-01T12:00:00.000Z');
  const ids = new SequentialIdGenerator();
  const projects = new InMemoryProjectRepository();
  const sessions = new InMemorySessionRepository();
  const agents = new InMemoryAgentRepository();
  const idempotency = new InMemoryIdempotencyStore();
  const extensions = new InMemoryExtensionRepository();
  const provider =
    options.provider?.(clock) ?? new FakeBrowserProvider({ clock, loadsExtensions: options.loadsExtensions });
  const project = aProject({ id: ids.next(), ownerId: OWNER, now: clock.now() });
  await projects.add(project);
  for (const id of ['ext', 'agent-extension']) {
    await extensions.add(
      anExtension({ id, projectId: project.id, name: `Named ${id}`, now: clock.now() }),
      ZIP,
    );
  }
  const auditLog = new InMemoryAuditLog();
  // Audit entries draw their ids apart, so the sessions' ids are the ones they always were.
  const audit = new AuditTrail({
    auditLog,
    transactions: directTransactions,
    ids: new SequentialIdGenerator(),
    clock,
  });
  const createSession = new CreateSession({
    ...{ projects, agents, sessions, provider, idempotency, extensions, audit },
    ...{ ids, clock },
  });
  const create = (request: SessionRequest = {}, idempotencyKey?: string, ownerId = OWNER) =>
    createSession.execute({ caller: asUser(ownerId), projectId: project.id, request, idempotencyKey });
  async function givenAgent(fields: Partial<AgentFields> = {}, projectId = project.id): Promise<Agent> {
    const agent = anAgent({
      id: ids.next(),
      projectId,
      now: clock.now(),
      name: 'Crawler',
      script: 'agent script',
      envVars: { A: 'agent-a', B: 'agent-b' },
      providerProjectId: 'agent-provider-project',
      contextId: 'agent-context',
      extensionId: 'agent-extension',
      region: 'eu-central-1',
      timeoutSec: 900,
      ...fields,
    });
    await agents.add(agent);
    return agent;
  }
  const stored = async () => (await sessions.list(project.id, { limit: 100, offset: 0 })).sessions;
  const creates = () => provider.calls.filter((c) => c.op === 'create');
  return {
    ...{ clock, projects, sessions, provider, idempotency, extensions, project, auditLog },
    ...{ create, givenAgent, stored, creates },
  };
}

async function errorOf(promise: Promise<unknown>): Promise<DomainError> {
  const error = await promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

describe('CreateSession', () => {
  it('records the create in the audit log once; an idempotent replay records nothing more', async () => {
    const { create, auditLog, project } = await setUp();
    const { session } = await create({}, 'key-audit');
    await create({}, 'key-audit');
    expect(auditLog.entries()).toEqual([
      expect.objectContaining({
        projectId: project.id,
        action: 'session.create',
        actor: expect.objectContaining({ type: 'user', id: OWNER }),
        target: { type: 'session', id: session.id },
      }),
    ]);
  });

  it('starts a browser with the defaults and stores the session', async () => {
    const { create, provider, project, stored } = await setUp();
    const { session, replayed } = await create();
    expect(replayed).toBe(false);
    expect(session).toMatchObject({
      projectId: project.id,
      provider: 'fake',
      name: 'Session 2026-03-01T12:00:00.000Z',
      region: 'us-west-2',
      timeoutSec: 300,
      providerProjectId: 'fake-project',
      script: '',
      env: {},
      extensionId: null,
      contextId: null,
      agentId: null,
      keepAlive: true,
      status: 'RUNNING',
      providerSessionId: 'fake-1',
      connectUrl: 'wss://fake.invalid/connect/fake-1',
      endedAt: null,
    });
    expect(session.createdAt.toISOString()).toBe('2026-03-01T12:00:00.000Z');
    expect(provider.calls).toEqual([
      {
        op: 'create',
        request: {
          sessionId: session.id,
          projectId: project.id,
          ownerId: OWNER,
          providerProjectId: 'fake-project',
          region: 'us-west-2',
          timeoutSec: 300,
          contextId: null,
          contextPersist: true,
          extensionId: null,
          extension: null,
          proxies: null,
          keepAlive: null,
          viewport: null,
          record: null,
        },
      },
    ]);
    expect(await stored()).toEqual([session]);
    expect(provider.running).toEqual(['fake-1']);
  });

  it('takes the request’s fields over the defaults', async () => {
    const { create, provider } = await setUp();
    const { session } = await create({
      projectId: 'bb-project',
      name: '  Checkout flow  ',
      script: 'console.log(1)',
      env: { TOKEN: 'x' },
      region: 'ap-southeast-1',
      timeoutSec: 21_600,
      extensionId: 'ext',
      contextId: 'ctx',
    });
    expect(session).toMatchObject({
      name: 'Checkout flow',
      script: 'console.log(1)',
      env: { TOKEN: 'x' },
      region: 'ap-southeast-1',
      timeoutSec: 21_600,
      extensionId: 'ext',
      contextId: 'ctx',
      providerProjectId: 'bb-project',
    });
    expect(provider.calls[0]).toMatchObject({
      request: {
        providerProjectId: 'bb-project',
        region: 'ap-southeast-1',
        timeoutSec: 21_600,
        contextId: 'ctx',
      },
    });
  });

  it('refuses an extensionId the provider cannot load with unsupported_option, and starts nothing', async () => {
    const { create, provider, stored } = await setUp({ loadsExtensions: false });
    const refused = await create({ extensionId: 'ext' }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'unsupported_option', option: 'extensionId' });
    expect(provider.calls).toEqual([]);
    expect(await stored()).toEqual([]);
    await expect(create({})).resolves.toMatchObject({ replayed: false });
  });

  it('hands the provider the stored extension extensionId names, with its zip', async () => {
    const { create, creates } = await setUp();
    const { session } = await create({ extensionId: 'ext' });
    expect(session.extensionId).toBe('ext');
    const [call] = creates();
    expect(call?.op === 'create' && call.request.extension).toEqual({
      id: 'ext',
      name: 'Named ext',
      archive: ZIP,
      providerExtensionId: null,
    });
  });

  it('refuses an extensionId that names no extension of the project with extension_not_found, and starts nothing', async () => {
    const { create, provider, stored, extensions, clock } = await setUp();
    const elsewhere = anExtension({ id: 'elsewhere', projectId: 'another-project', now: clock.now() });
    await extensions.add(elsewhere, ZIP);
    for (const extensionId of ['unknown', 'elsewhere']) {
      expect((await errorOf(create({ extensionId }))).code).toBe('extension_not_found');
    }
    expect(provider.calls).toEqual([]);
    expect(await stored()).toEqual([]);
  });

  it('uploads an extension to a provider’s own store on first use and keeps its id for the next session', async () => {
    const uploads: string[] = [];
    class StoringProvider extends FakeBrowserProvider {
      override readonly extensions = {
        upload: async (_archive: Uint8Array, fileName: string) => {
          uploads.push(fileName);
          return `provider-ext-${uploads.length}`;
        },
        delete: async () => {},
      };
    }
    const { create, creates, extensions, project } = await setUp({
      provider: (clock) => new StoringProvider({ clock }),
    });
    await create({ extensionId: 'ext' });
    await create({ extensionId: 'ext' });
    expect(uploads).toHaveLength(1);
    expect(creates().map((c) => c.op === 'create' && c.request.extension?.providerExtensionId)).toEqual([
      'provider-ext-1',
      'provider-ext-1',
    ]);
    expect((await extensions.findInProject(project.id, 'ext'))?.providerExtensionId).toBe('provider-ext-1');
  });

  it('passes an id that is not one of ours through to a provider with its own extension store', async () => {
    class StoringProvider extends FakeBrowserProvider {
      override readonly extensions = { upload: async () => 'unused', delete: async () => {} };
    }
    const { create, creates } = await setUp({ provider: (clock) => new StoringProvider({ clock }) });
    const { session } = await create({ extensionId: 'uploaded-to-the-provider-directly' });
    expect(session.extensionId).toBe('uploaded-to-the-provider-directly');
    const [call] = creates();
    expect(call?.op === 'create' && [call.request.extensionId, call.request.extension]).toEqual([
      'uploaded-to-the-provider-directly',
      null,
    ]);
  });

  it('passes contextPersist to the provider (true unless the request says false), and stores none', async () => {
    const { create, creates, stored } = await setUp();
    await create({ contextId: 'ctx' });
    const { session } = await create({ contextId: 'ctx-2', contextPersist: false });
    expect(
      creates().map((c) => c.op === 'create' && [c.request.contextId, c.request.contextPersist]),
    ).toEqual([
      ['ctx', true],
      ['ctx-2', false],
    ]);
    expect(session).not.toHaveProperty('contextPersist');
    expect((await stored()).find((s) => s.id === session.id)).not.toHaveProperty('contextPersist');
  });

  it('passes keepAlive as the request says (null: the provider’s default) and stores it (true unless false)', async () => {
    const { create, creates, stored } = await setUp();
    const { session: kept } = await create();
    const { session: ending } = await create({ keepAlive: false });
    expect(creates().map((c) => c.op === 'create' && c.request.keepAlive)).toEqual([null, false]);
    expect([kept.keepAlive, ending.keepAlive]).toEqual([true, false]);
    const byId = new Map((await stored()).map((s) => [s.id, s.keepAlive]));
    expect([byId.get(kept.id), byId.get(ending.id)]).toEqual([true, false]);
  });

  it('passes the recording switch to the provider: false, true, or null when the request is silent', async () => {
    const { create, creates } = await setUp();
    await create({ record: false });
    await create({ record: true });
    await create({});
    expect(creates().map((c) => c.op === 'create' && c.request.record)).toEqual([false, true, null]);
  });

  it('passes the viewport to the provider, a side left out at its default, and stores it', async () => {
    const { create, creates, stored } = await setUp();
    await create({ viewport: { width: 1024, height: 700 } });
    await create({ viewport: { width: 1024 } });
    await create({ viewport: { height: 700 } });
    await create({ viewport: {} });
    const { session } = await create({ viewport: null });
    expect(creates().map((c) => c.op === 'create' && c.request.viewport)).toEqual([
      { width: 1024, height: 700 },
      { width: 1024, height: DEFAULT_VIEWPORT_HEIGHT },
      { width: DEFAULT_VIEWPORT_WIDTH, height: 700 },
      null,
      null,
    ]);
    expect(session.viewport).toBeNull();
    // Newest first.
    expect((await stored()).map((s) => s.viewport)).toEqual([
      null,
      null,
      { width: DEFAULT_VIEWPORT_WIDTH, height: 700 },
      { width: 1024, height: DEFAULT_VIEWPORT_HEIGHT },
      { width: 1024, height: 700 },
    ]);
  });

  describe('with an agent', () => {
    it('uses the agent’s fields as the defaults', async () => {
      const { create, givenAgent, provider } = await setUp();
      const agent = await givenAgent();
      const { session } = await create({ agentId: agent.id });
      expect(session).toMatchObject({
        agentId: agent.id,
        name: 'Crawler',
        script: 'agent script',
        env: { A: 'agent-a', B: 'agent-b' },
        region: 'eu-central-1',
        timeoutSec: 900,
        contextId: 'agent-context',
        extensionId: 'agent-extension',
        providerProjectId: 'agent-provider-project',
      });
      expect(provider.calls[0]).toMatchObject({
        request: {
          providerProjectId: 'agent-provider-project',
          region: 'eu-central-1',
          timeoutSec: 900,
          contextId: 'agent-context',
          extensionId: 'agent-extension',
        },
      });
    });

    it('lets the request override them, merging env per key with the request winning', async () => {
      const { create, givenAgent } = await setUp();
      const agent = await givenAgent();
      const { session } = await create({
        agentId: agent.id,
        name: 'Override',
        region: 'us-east-1',
        timeoutSec: 60,
        env: { B: 'request-b', C: 'request-c' },
        contextId: null,
        projectId: 'request-project',
      });
      expect(session).toMatchObject({
        name: 'Override',
        script: 'agent script',
        region: 'us-east-1',
        timeoutSec: 60,
        env: { A: 'agent-a', B: 'request-b', C: 'request-c' },
        contextId: null,
        extensionId: 'agent-extension',
        providerProjectId: 'request-project',
      });
    });

    it('falls back to the provider default when the agent names no provider project', async () => {
      const { create, givenAgent } = await setUp();
      const agent = await givenAgent({ providerProjectId: null });
      expect((await create({ agentId: agent.id })).session.providerProjectId).toBe('fake-project');
    });

    it('refuses an unknown agent with agent_not_found', async () => {
      const { create, provider, stored } = await setUp();
      const error = await errorOf(create({ agentId: '00000000-0000-7000-8000-0000000fffff' }));
      expect(error.code).toBe('agent_not_found');
      expect(provider.calls).toEqual([]);
      expect(await stored()).toEqual([]);
    });

    it('refuses an agent of another project with agent_not_found', async () => {
      const { create, projects, givenAgent, provider } = await setUp();
      const other = aProject({ ownerId: OWNER });
      await projects.add(other);
      const foreign = await givenAgent({}, other.id);
      expect((await errorOf(create({ agentId: foreign.id }))).code).toBe('agent_not_found');
      expect(provider.calls).toEqual([]);
    });

    it('refuses an inactive agent with agent_inactive', async () => {
      const { create, givenAgent, provider, stored } = await setUp();
      const agent = await givenAgent({ active: false });
      expect((await errorOf(create({ agentId: agent.id }))).code).toBe('agent_inactive');
      expect(provider.calls).toEqual([]);
      expect(await stored()).toEqual([]);
    });
  });

  it('refuses an archived project with project_archived, without calling the provider', async () => {
    const { create, projects, project, provider, stored } = await setUp();
    project.archive(new Date());
    await projects.update(project);
    expect((await errorOf(create())).code).toBe('project_archived');
    expect(provider.calls).toEqual([]);
    expect(await stored()).toEqual([]);
  });

  it('answers not_found for another owner’s project', async () => {
    const { create, provider } = await setUp();
    expect((await errorOf(create({}, undefined, STRANGER))).code).toBe('not_found');
    expect(provider.calls).toEqual([]);
  });

  describe('validation', () => {
    const tooManyKeys = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`K${i}`, 'v']));
    it.each<[string, SessionRequest, string]>([
      ['an env key that is not an identifier', { env: { '1BAD': 'x' } }, 'env.1BAD'],
      ['an env key with a dash', { env: { 'MY-KEY': 'x' } }, 'env.MY-KEY'],
      ['more than 100 env keys', { env: tooManyKeys }, 'env'],
      ['an env value over 8 KiB', { env: { BIG: 'x'.repeat(8 * 1024 + 1) } }, 'env.BIG'],
      ['a timeout of 59 s', { timeoutSec: 59 }, 'timeoutSec'],
      ['a timeout of 21601 s', { timeoutSec: 21_601 }, 'timeoutSec'],
      ['a timeout that is not an integer', { timeoutSec: 300.5 }, 'timeoutSec'],
      ['an unknown region', { region: 'mars-1' }, 'region'],
      ['a script over 256 KiB', { script: 'x'.repeat(256 * 1024 + 1) }, 'script'],
      ['a name of spaces only', { name: '   ' }, 'name'],
      ['a name over 200 characters', { name: 'n'.repeat(201) }, 'name'],
      ['a provider project id over 128 characters', { projectId: 'p'.repeat(129) }, 'projectId'],
      ['a NUL in the name', { name: 'run\u0000' }, 'name'],
      ['a DEL in the name', { name: 'run\u007f' }, 'name'],
      ['a NUL in the script', { script: '\u0000' }, 'script'],
      ['a NUL in an env value', { env: { KEY: 'x\u0000' } }, 'env.KEY'],
      ['a control character in the provider project id', { projectId: 'p\u0001' }, 'projectId'],
      ['a control character in the extension id', { extensionId: 'e\u009f' }, 'extensionId'],
      ['a viewport 99 pixels wide', { viewport: { width: 99, height: 700 } }, 'viewport.width'],
      ['a viewport 7681 pixels high', { viewport: { width: 1024, height: 7681 } }, 'viewport.height'],
      ['a viewport width that is not an integer', { viewport: { width: 1024.5 } }, 'viewport.width'],
      ['a viewport height of NaN', { viewport: { height: Number.NaN } }, 'viewport.height'],
    ])('refuses %s with validation_failed and no provider call', async (_, request, path) => {
      const { create, provider, stored } = await setUp();
      const error = await errorOf(create(request));
      expect(error.code).toBe('validation_failed');
      expect(error.errors?.map((e) => e.path)).toContain(path);
      expect(provider.calls).toEqual([]);
      expect(await stored()).toEqual([]);
    });

    it('accepts the limits themselves', async () => {
      const { create } = await setUp();
      const hundredKeys = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`K${i}`, 'v']));
      await create({ timeoutSec: 60, env: hundredKeys, script: 'x'.repeat(256 * 1024) });
      await create({ timeoutSec: 21_600, name: 'n'.repeat(200), viewport: { width: 100, height: 7680 } });
      await create({ viewport: { width: 7680, height: 100 } });
    });

    it('validates an agent’s stored fields merged with the request', async () => {
      const { create, givenAgent, provider } = await setUp();
      const agent = await givenAgent();
      const tooMany = Object.fromEntries(Array.from({ length: 99 }, (_, i) => [`R${i}`, 'v']));
      // 2 agent keys + 99 request keys = 101.
      expect((await errorOf(create({ agentId: agent.id, env: tooMany }))).code).toBe('validation_failed');
      expect(provider.calls).toEqual([]);
    });
  });

  it('stores nothing when the provider refuses, passing its retry-after on', async () => {
    const { create, provider, stored } = await setUp();
    provider.failNext('create', 'provider_rate_limited', 7);
    const error = await errorOf(create());
    expect(error.code).toBe('provider_rate_limited');
    expect(error.retryAfterSec).toBe(7);
    expect(await stored()).toEqual([]);
    expect(provider.running).toEqual([]);
  });

  it('releases the browser when the session cannot be stored, and fails', async () => {
    const { create, provider, sessions, stored } = await setUp();
    const storeError = new Error('database went away');
    sessions.failNextAdd = storeError;
    await expect(create()).rejects.toBe(storeError);
    expect(provider.calls.map((c) => c.op)).toEqual(['create', 'release']);
    expect(provider.calls[1]).toEqual({
      op: 'release',
      providerSessionId: 'fake-1',
      providerProjectId: 'fake-project',
    });
    expect(provider.running).toEqual([]);
    expect(await stored()).toEqual([]);
  });

  it('still reports the store failure when releasing the browser fails too', async () => {
    const { create, provider, sessions } = await setUp();
    const storeError = new Error('database went away');
    sessions.failNextAdd = storeError;
    provider.failNext('release', 'provider_unavailable');
    await expect(create()).rejects.toBe(storeError);
  });

  describe('idempotency', () => {
    it('answers a retry with the same key and body with the first session and no second browser', async () => {
      const { create, creates, stored, clock } = await setUp();
      const first = await create({ name: 'once', env: { A: '1', B: '2' } }, 'key-1');
      clock.advance(60_000);
      // Key order in the body does not matter.
      const retry = await create({ env: { B: '2', A: '1' }, name: 'once' }, 'key-1');
      expect(retry.replayed).toBe(true);
      expect(retry.session.id).toBe(first.session.id);
      expect(retry.session.providerSessionId).toBe(first.session.providerSessionId);
      expect(creates()).toHaveLength(1);
      expect(await stored()).toHaveLength(1);
    });

    it('answers a retry with the first response even after the session changed (http-api.md §5)', async () => {
      const { create, clock, sessions } = await setUp();
      const first = await create({ name: 'once' }, 'key-ended');
      clock.advance(30_000);
      const stored = (await sessions.findInProject(first.session.projectId, first.session.id))!;
      stored.end('COMPLETED', clock.now());
      await sessions.update(stored);
      const retry = await create({ name: 'once' }, 'key-ended');
      expect(retry.replayed).toBe(true);
      expect(retry.session).toEqual(first.session);
      expect(retry.session).toBeInstanceOf(BrowserSession);
      expect(retry.session.status).toBe('RUNNING');
      expect(retry.session.endedAt).toBeNull();
      // The stored session is not rewound.
      expect((await sessions.findInProject(first.session.projectId, first.session.id))?.status).toBe(
        'COMPLETED',
      );
    });

    it('answers a retry with the first session even after the project was archived', async () => {
      const { create, creates, clock, projects, project } = await setUp();
      const first = await create({ name: 'before' }, 'key-arch');
      const stored = (await projects.findAccess(project.id, OWNER))!.project;
      stored.archive(clock.now());
      await projects.update(stored);
      const retry = await create({ name: 'before' }, 'key-arch');
      expect(retry).toMatchObject({ replayed: true, session: { id: first.session.id } });
      expect(creates()).toHaveLength(1);
      expect((await errorOf(create({ name: 'before' }, 'other-key'))).code).toBe('project_archived');
    });

    it("does not answer a key used in another owner's project", async () => {
      const { create } = await setUp();
      expect((await errorOf(create({}, 'key-x', 'someone-else'))).code).toBe('not_found');
    });

    it('refuses the same key with another body with idempotency_key_reused', async () => {
      const { create, creates, stored } = await setUp();
      await create({ name: 'first' }, 'key-1');
      expect((await errorOf(create({ name: 'second' }, 'key-1'))).code).toBe('idempotency_key_reused');
      expect(creates()).toHaveLength(1);
      expect(await stored()).toHaveLength(1);
    });

    it('creates again for another key, and after 24 hours for the same key', async () => {
      const { create, creates, clock } = await setUp();
      const first = await create({ name: 'n' }, 'key-1');
      expect((await create({ name: 'n' }, 'key-2')).session.id).not.toBe(first.session.id);
      clock.advance(24 * 60 * 60 * 1000);
      const later = await create({ name: 'n' }, 'key-1');
      expect(later.replayed).toBe(false);
      expect(later.session.id).not.toBe(first.session.id);
      expect(creates()).toHaveLength(3);
    });

    it('gives the key up when the create fails, so a retry creates', async () => {
      const { create, creates, provider, stored } = await setUp();
      provider.failNext('create', 'provider_unavailable');
      expect((await errorOf(create({ name: 'n' }, 'key-1'))).code).toBe('provider_unavailable');
      const retry = await create({ name: 'n' }, 'key-1');
      expect(retry.replayed).toBe(false);
      expect(creates()).toHaveLength(2);
      expect((await stored()).map((s) => s.id)).toEqual([retry.session.id]);
    });

    it('gives the key up when storing fails', async () => {
      const { create, sessions, stored } = await setUp();
      sessions.failNextAdd = new Error('database went away');
      await expect(create({ name: 'n' }, 'key-1')).rejects.toThrow('database went away');
      const retry = await create({ name: 'n' }, 'key-1');
      expect(retry.replayed).toBe(false);
      expect(await stored()).toHaveLength(1);
    });

    it('starts one browser for concurrent requests with one key; the others hear it is in progress', async () => {
      const { create, creates, stored } = await setUp();
      const outcomes = await Promise.allSettled(
        Array.from({ length: 5 }, () => create({ name: 'same' }, 'key-1')),
      );
      expect(creates()).toHaveLength(1);
      expect(await stored()).toHaveLength(1);
      const won = outcomes.filter((o) => o.status === 'fulfilled');
      expect(won).toHaveLength(1);
      for (const o of outcomes) {
        if (o.status === 'rejected') expect(o.reason).toMatchObject({ code: 'idempotency_key_reused' });
      }
      // Once the first is done, a retry replays it.
      const retry = await create({ name: 'same' }, 'key-1');
      expect(retry.replayed).toBe(true);
      expect(creates()).toHaveLength(1);
    });

    it('takes a claim over once it stayed unanswered past the lease (its request died), creating once', async () => {
      const { create, creates, clock, idempotency, project, stored } = await setUp();
      const request = { name: 'orphaned key' };
      // A request claimed the key and died before it created anything or gave the key up.
      const claimedAt = clock.now();
      const expiresAt = new Date(claimedAt.getTime() + IDEMPOTENCY_TTL_MS);
      const fingerprint = stableStringify(request);
      await idempotency.reserve(
        `${OWNER}:${project.id}`,
        'key-1',
        fingerprint,
        'dead-session',
        claimedAt,
        expiresAt,
      );

      clock.advance(IDEMPOTENCY_LEASE_MS - 1);
      expect((await errorOf(create(request, 'key-1'))).message).toContain('still in progress');
      clock.advance(1);
      const outcomes = await Promise.allSettled([create(request, 'key-1'), create(request, 'key-1')]);
      const won = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
      expect(won).toEqual([expect.objectContaining({ replayed: false })]);
      expect(outcomes.find((o) => o.status === 'rejected')).toMatchObject({
        reason: { code: 'idempotency_key_reused' },
      });
      expect(creates()).toHaveLength(1);
      // From then on the key answers with that session.
      const retry = await create(request, 'key-1');
      expect(retry).toMatchObject({ replayed: true, session: { id: won[0]!.session.id } });
      expect((await stored()).map((s) => s.id)).toEqual([won[0]!.session.id]);
    });

    it('answers with the session when recording its answer failed, never a second browser, even past the lease', async () => {
      const { create, creates, clock, idempotency } = await setUp();
      const complete = idempotency.complete.bind(idempotency);
      idempotency.complete = async () => {
        idempotency.complete = complete;
        throw new Error('database went away');
      };
      const first = await create({ name: 'n' }, 'key-1');
      clock.advance(IDEMPOTENCY_LEASE_MS + 1);
      const retry = await create({ name: 'n' }, 'key-1');
      expect(retry).toMatchObject({ replayed: true, session: { id: first.session.id } });
      expect(creates()).toHaveLength(1);
    });

    it('does not reserve the key for a request that fails validation', async () => {
      const { create } = await setUp();
      expect((await errorOf(create({ timeoutSec: 1 }, 'key-1'))).code).toBe('validation_failed');
      expect((await create({ timeoutSec: 60 }, 'key-1')).replayed).toBe(false);
    });
  });
});
