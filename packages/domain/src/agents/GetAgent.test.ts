import { anAgent, aProject, InMemoryAgentRepository, InMemoryProjectRepository } from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { asUser, type Caller } from '../access/Caller.ts';
import { GetAgent } from './GetAgent.ts';

const OWNER = 'owner-1';

async function setUp() {
  const projects = new InMemoryProjectRepository();
  const agents = new InMemoryAgentRepository();
  const project = aProject({ ownerId: OWNER });
  const other = aProject({ ownerId: OWNER });
  for (const p of [project, other]) await projects.add(p);
  const agent = anAgent({ projectId: project.id, name: 'Crawler', envVars: { TOKEN: 'x' } });
  const foreign = anAgent({ projectId: other.id });
  for (const a of [agent, foreign]) await agents.add(a);
  const getAgent = new GetAgent({ projects, agents });
  const get = (agentId: string, caller: Caller = asUser(OWNER), projectId = project.id) =>
    getAgent.execute({ caller, projectId, agentId });
  return { projects, project, other, agent, foreign, get };
}

describe('GetAgent', () => {
  it('answers the project’s agent with every field', async () => {
    const { get, agent } = await setUp();
    expect(await get(agent.id)).toEqual(agent);
  });

  it('still answers an agent of an archived project', async () => {
    const { get, agent, project, projects } = await setUp();
    project.archive(new Date('2026-03-02T00:00:00.000Z'));
    await projects.update(project);
    expect((await get(agent.id)).name).toBe('Crawler');
  });

  it('answers not_found for an unknown agent and for an agent of another project', async () => {
    const { get, foreign } = await setUp();
    await expect(get('00000000-0000-7000-8000-0000000fffff')).rejects.toMatchObject({ code: 'not_found' });
    await expect(get(foreign.id)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('answers not_found to another owner', async () => {
    const { get, agent } = await setUp();
    await expect(get(agent.id, asUser('owner-2'))).rejects.toMatchObject({ code: 'not_found' });
  });

  it('lets the project’s API key read it; a key of another project gets forbidden_for_api_key', async () => {
    const { get, agent, project, other } = await setUp();
    const keyOf = (projectId: string): Caller => ({
      kind: 'apiKey',
      keyId: 'k',
      keyName: 'CI',
      role: 'developer',
      projectId,
    });
    expect((await get(agent.id, keyOf(project.id))).id).toBe(agent.id);
    await expect(get(agent.id, keyOf(other.id))).rejects.toMatchObject({ code: 'forbidden_for_api_key' });
  });
});
