import {
  anAgent,
  aProject,
  FakeBrowserProvider,
  InMemoryAgentRepository,
  InMemoryAuditLog,
  InMemoryIdempotencyStore,
  InMemoryProjectRepository,
  InMemorySessionRepository,
  ManualClock,
  SequentialIdGenerator,
} from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { asUser } from '../access/Caller.ts';
import { AuditTrail } from '../audit/AuditTrail.ts';
import { DomainError } from '../shared/DomainError.ts';
import { directTransactions } from '../shared/Transactions.ts';
import { CreateSession } from './CreateSession.ts';
import type { SessionRequest } from './resolveSessionSettings.ts';
import type { SessionProxy } from './sessionOptions.ts';

const OWNER = 'owner-1';

async function setUp() {
  const clock = new ManualClock('2026-03-01T12:00:00.000Z');
  const ids = new SequentialIdGenerator();
  const projects = new InMemoryProjectRepository();
  const sessions = new InMemorySessionRepository();
  const agents = new InMemoryAgentRepository();
  const idempotency = new InMemoryIdempotencyStore();
  const provider = new FakeBrowserProvider({ clock });
  const project = aProject({ id: ids.next(), ownerId: OWNER, now: clock.now() });
  await projects.add(project);
  const audit = new AuditTrail({
    auditLog: new InMemoryAuditLog(),
    transactions: directTransactions,
    ids: new SequentialIdGenerator(),
    clock,
  });
  const createSession = new CreateSession({
    projects,
    agents,
    sessions,
    provider,
    idempotency,
    audit,
    ids,
    clock,
  });
  const create = (request: SessionRequest = {}, idempotencyKey?: string) =>
    createSession.execute({ caller: asUser(OWNER), projectId: project.id, request, idempotencyKey });
  const requests = () => provider.calls.flatMap((c) => (c.op === 'create' ? [c.request] : []));
  return { ids, clock, project, agents, sessions, provider, create, requests };
}

/** A deep copy, as another request's body would be. */
const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

const PROXIES: SessionProxy[] = [
  {
    type: 'external',
    server: 'http://proxy.example:8080',
    username: 'user',
    password: 'hunter2',
    domainPattern: '\\.example\\.com$',
  },
  { type: 'none' },
];

describe('CreateSession: proxies', () => {
  it('passes the proxies to the provider and keeps a copy on the session, with no proxy bytes yet', async () => {
    const { create, requests, sessions, project } = await setUp();
    const given = copy(PROXIES);
    const { session } = await create({ proxies: given });
    expect(requests()[0]?.proxies).toEqual(PROXIES);
    expect(session.proxies).toEqual(PROXIES);
    expect(session.proxyBytes).toBe(0);
    // The caller's objects are not the session's.
    (given[0] as { server: string }).server = 'http://changed.example:1';
    expect((await sessions.findInProject(project.id, session.id))?.proxies).toEqual(PROXIES);
  });

  it('treats no proxies, null and an empty list alike: direct, null for the provider', async () => {
    const { create, requests } = await setUp();
    await create();
    await create({ proxies: null });
    const { session } = await create({ proxies: [] });
    expect(requests().map((r) => r.proxies)).toEqual([null, null, null]);
    expect(session.proxies).toBeNull();
  });

  it('refuses a bad entry with validation_failed naming the field, and starts nothing', async () => {
    const { create, provider } = await setUp();
    const error = await create({
      proxies: [{ type: 'external', server: 'http://proxy.example' }, { type: 'none' }],
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('validation_failed');
    expect((error as DomainError).errors?.map((e) => e.path)).toEqual(['proxies.0.server']);
    expect(provider.calls).toEqual([]);
  });

  it('takes proxies from the request only, also with an agent', async () => {
    const { create, requests, agents, ids, clock, project } = await setUp();
    const agent = anAgent({ id: ids.next(), projectId: project.id, now: clock.now(), name: 'Crawler' });
    await agents.add(agent);
    await create({ agentId: agent.id });
    await create({ agentId: agent.id, proxies: PROXIES });
    expect(requests().map((r) => r.proxies)).toEqual([null, PROXIES]);
  });

  it('refuses proxies a provider cannot route with unsupported_option, starting nothing; none alone is direct', async () => {
    const { create, provider, requests } = await setUp();
    Object.assign(provider, { routesProxies: false });
    const error = await create({ proxies: PROXIES }).catch((e: unknown) => e);
    expect((error as DomainError).code).toBe('unsupported_option');
    expect((error as DomainError).errors?.map((e) => e.path)).toEqual(['proxies']);
    expect(provider.calls).toEqual([]);
    await create({ proxies: [{ type: 'none' }] });
    expect(requests().map((r) => r.proxies)).toEqual([[{ type: 'none' }]]);
  });

  it('counts the proxies in the Idempotency-Key fingerprint: another password is another body', async () => {
    const { create, provider } = await setUp();
    await create({ proxies: PROXIES }, 'key-1');
    expect((await create({ proxies: copy(PROXIES) }, 'key-1')).replayed).toBe(true);
    const other = [{ ...PROXIES[0], password: 'other' } as SessionProxy];
    const error = await create({ proxies: other }, 'key-1').catch((e: unknown) => e);
    expect((error as DomainError).code).toBe('idempotency_key_reused');
    expect(provider.calls.filter((c) => c.op === 'create')).toHaveLength(1);
  });
});
