import {
  aProject,
  FakeBrowserProvider,
  InMemoryAgentRepository,
  InMemoryAuditLog,
  InMemoryProjectRepository,
  ManualClock,
  SequentialIdGenerator,
} from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { asUser } from '../access/Caller.ts';
import { AuditTrail } from '../audit/AuditTrail.ts';
import { directTransactions } from '../shared/Transactions.ts';
import { CreateAgent } from './CreateAgent.ts';
import type { AgentInput } from './resolveAgentInput.ts';
import { UpdateAgent } from './UpdateAgent.ts';

const OWNER = 'owner-1';

async function setUp() {
  const clock = new ManualClock('2026-03-01T12:00:00.000Z');
  const ids = new SequentialIdGenerator();
  const projects = new InMemoryProjectRepository();
  const agents = new InMemoryAgentRepository();
  const provider = new FakeBrowserProvider({ clock });
  const project = aProject({ id: ids.next(), ownerId: OWNER, now: clock.now() });
  await projects.add(project);
  const audit = new AuditTrail({
    auditLog: new InMemoryAuditLog(),
    transactions: directTransactions,
    ids,
    clock,
  });
  const create = new CreateAgent({ projects, agents, provider, ids, clock, audit });
  const agent = await create.execute({
    caller: asUser(OWNER),
    projectId: project.id,
    agent: {
      name: 'Crawler',
      description: 'old',
      envVars: { A: '1' },
      region: 'eu-central-1',
      timeoutSec: 600,
    },
  });
  const sibling = await create.execute({
    caller: asUser(OWNER),
    projectId: project.id,
    agent: { name: 'Sibling' },
  });
  clock.advance(60_000);
  const updateAgent = new UpdateAgent({ projects, agents, provider, clock, audit });
  const update = (changes: AgentInput, agentId = agent.id, ownerId = OWNER) =>
    updateAgent.execute({ caller: asUser(ownerId), projectId: project.id, agentId, changes });
  const stored = async () => (await agents.findInProject(project.id, agent.id))!;
  return { projects, project, agent, sibling, update, stored };
}

describe('UpdateAgent', () => {
  it('changes only the fields given and moves updatedAt', async () => {
    const { agent, update, stored } = await setUp();
    const updated = await update({ description: 'new', active: false, envVars: { B: '2' } });
    const after = await stored();
    expect(after).toEqual(updated);
    expect(after).toMatchObject({
      name: 'Crawler',
      description: 'new',
      active: false,
      envVars: { B: '2' },
      region: 'eu-central-1',
      timeoutSec: 600,
      script: '',
      metadata: {},
    });
    expect(after.createdAt.toISOString()).toBe(agent.createdAt.toISOString());
    expect(after.updatedAt.toISOString()).toBe('2026-03-01T12:01:00.000Z');
  });

  it('sets a nullable field to null when given null', async () => {
    const { update, stored } = await setUp();
    await update({ contextId: 'ctx' });
    await update({ contextId: null });
    expect((await stored()).contextId).toBeNull();
  });

  it('trims a new name and refuses another agent’s name with agent_name_taken', async () => {
    const { update, stored } = await setUp();
    expect((await update({ name: '  Renamed ' })).name).toBe('Renamed');
    await expect(update({ name: 'Sibling' })).rejects.toMatchObject({ code: 'agent_name_taken' });
    expect((await stored()).name).toBe('Renamed');
  });

  it.each<[string, AgentInput]>([
    ['no fields', {}],
    ['only undefined fields', { name: undefined, description: undefined }],
  ])('refuses %s with validation_failed', async (_, changes) => {
    const { update, stored, agent } = await setUp();
    await expect(update(changes)).rejects.toMatchObject({ code: 'validation_failed' });
    expect((await stored()).updatedAt.toISOString()).toBe(agent.updatedAt.toISOString());
  });

  it('validates the merged fields and changes nothing when they break a rule', async () => {
    const { update, stored } = await setUp();
    await expect(update({ description: 'fine', timeoutSec: 59 })).rejects.toMatchObject({
      code: 'validation_failed',
      errors: [expect.objectContaining({ path: 'timeoutSec' })],
    });
    await expect(update({ name: ' ' })).rejects.toMatchObject({ code: 'validation_failed' });
    expect((await stored()).description).toBe('old');
  });

  it('refuses an archived project with project_archived and changes nothing', async () => {
    const { projects, project, update, stored } = await setUp();
    project.archive(new Date());
    await projects.update(project);
    await expect(update({ description: 'new' })).rejects.toMatchObject({ code: 'project_archived' });
    expect((await stored()).description).toBe('old');
  });

  it('answers not_found for an unknown agent and another owner', async () => {
    const { update } = await setUp();
    await expect(update({ description: 'x' }, '00000000-0000-7000-8000-0000000fffff')).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(update({ description: 'x' }, undefined, 'owner-2')).rejects.toMatchObject({
      code: 'not_found',
    });
  });
});
