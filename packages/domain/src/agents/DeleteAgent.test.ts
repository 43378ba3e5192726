import { givenSessionWorld } from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { asUser } from '../access/Caller.ts';
import { CreateSession } from '../sessions/CreateSession.ts';
import { CreateAgent } from './CreateAgent.ts';
import { DeleteAgent } from './DeleteAgent.ts';
import { GetAgent } from './GetAgent.ts';

const OWNER = 'owner-1';

async function setUp() {
  const { clock, ids, projects, agents, sessions, provider, project, addProject, idempotency, audit } =
    await givenSessionWorld();
  const other = await addProject('Other', 'other');
  const agent = await new CreateAgent({ projects, agents, provider, ids, clock, audit }).execute({
    caller: asUser(OWNER),
    projectId: project.id,
    agent: { name: 'Crawler' },
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
  const deleteAgent = new DeleteAgent({ projects, agents, audit });
  const remove = (input: { agentId?: string; projectId?: string; ownerId?: string } = {}) =>
    deleteAgent.execute({
      caller: asUser(input.ownerId ?? OWNER),
      projectId: input.projectId ?? project.id,
      agentId: input.agentId ?? agent.id,
    });
  const get = () =>
    new GetAgent({ projects, agents }).execute({
      caller: asUser(OWNER),
      projectId: project.id,
      agentId: agent.id,
    });
  return { projects, project, other, agent, sessions, createSession, remove, get };
}

describe('DeleteAgent', () => {
  it('deletes the agent; a second delete is not_found', async () => {
    const { remove, get } = await setUp();
    expect((await get()).name).toBe('Crawler');
    await remove();
    await expect(get()).rejects.toMatchObject({ code: 'not_found' });
    await expect(remove()).rejects.toMatchObject({ code: 'not_found' });
  });

  it('answers not_found for an unknown agent, another project and another owner, deleting nothing', async () => {
    const { remove, get, other } = await setUp();
    await expect(remove({ agentId: '00000000-0000-7000-8000-0000000fffff' })).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(remove({ projectId: other.id })).rejects.toMatchObject({ code: 'not_found' });
    await expect(remove({ ownerId: 'owner-2' })).rejects.toMatchObject({ code: 'not_found' });
    expect((await get()).name).toBe('Crawler');
  });

  it('leaves sessions that ran the agent with their agentId', async () => {
    const { remove, agent, project, createSession, sessions } = await setUp();
    const { session } = await createSession.execute({
      caller: asUser(OWNER),
      projectId: project.id,
      request: { agentId: agent.id },
    });
    await remove();
    expect((await sessions.findInProject(project.id, session.id))?.agentId).toBe(agent.id);
    await expect(
      createSession.execute({ caller: asUser(OWNER), projectId: project.id, request: { agentId: agent.id } }),
    ).rejects.toMatchObject({ code: 'agent_not_found' });
  });

  it('deletes agents of an archived project', async () => {
    const { remove, get, projects, project } = await setUp();
    project.archive(new Date());
    await projects.update(project);
    await remove();
    await expect(get()).rejects.toMatchObject({ code: 'not_found' });
  });
});
