import { givenSessionWorld } from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { asUser } from '../access/Caller.ts';
import { CreateAgent } from './CreateAgent.ts';
import { ListAgents } from './ListAgents.ts';

const OWNER = 'owner-1';

describe('ListAgents', () => {
  it('lists the project’s agents newest first, only the active ones when asked', async () => {
    const { clock, ids, projects, agents, provider, project, addProject, audit } = await givenSessionWorld();
    const other = await addProject('Other', 'other');
    const create = new CreateAgent({
      projects,
      agents,
      provider,
      ids,
      clock,
      audit,
    });
    const names: string[] = [];
    for (const [name, active, projectId] of [
      ['first', true, project.id],
      ['second', false, project.id],
      ['third', true, project.id],
      ['elsewhere', true, other.id],
    ] as const) {
      clock.advance(1_000);
      await create.execute({ caller: asUser(OWNER), projectId, agent: { name, active } });
      names.push(name);
    }
    const list = new ListAgents({ projects, agents });
    const namesOf = async (activeOnly?: boolean) =>
      (await list.execute({ caller: asUser(OWNER), projectId: project.id, activeOnly })).map((a) => a.name);
    expect(await namesOf()).toEqual(['third', 'second', 'first']);
    expect(await namesOf(false)).toEqual(['third', 'second', 'first']);
    expect(await namesOf(true)).toEqual(['third', 'first']);
    await expect(list.execute({ caller: asUser('owner-2'), projectId: project.id })).rejects.toMatchObject({
      code: 'not_found',
    });
    // Archived projects stay readable.
    project.archive(clock.now());
    await projects.update(project);
    expect(await namesOf(true)).toEqual(['third', 'first']);
  });
});
