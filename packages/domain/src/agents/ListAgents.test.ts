import { describe, expect, it } from 'vitest';
import { Project } from '../projects/Project.ts';
import { FakeBrowserProvider } from '../testing/FakeBrowserProvider.ts';
import { InMemoryAgentRepository } from '../testing/InMemoryAgentRepository.ts';
import { InMemoryProjectRepository } from '../testing/InMemoryProjectRepository.ts';
import { ManualClock } from '../testing/ManualClock.ts';
import { SequentialIdGenerator } from '../testing/SequentialIdGenerator.ts';
import { CreateAgent } from './CreateAgent.ts';
import { ListAgents } from './ListAgents.ts';

const OWNER = 'owner-1';

describe('ListAgents', () => {
  it('lists the project’s agents newest first, only the active ones when asked', async () => {
    const clock = new ManualClock('2026-03-01T12:00:00.000Z');
    const ids = new SequentialIdGenerator();
    const projects = new InMemoryProjectRepository();
    const agents = new InMemoryAgentRepository();
    const project = Project.create({
      id: ids.next(),
      ownerId: OWNER,
      name: 'Main',
      slug: 'main',
      now: clock.now(),
    });
    const other = Project.create({
      id: ids.next(),
      ownerId: OWNER,
      name: 'Other',
      slug: 'other',
      now: clock.now(),
    });
    await projects.add(project);
    await projects.add(other);
    const create = new CreateAgent({
      projects,
      agents,
      provider: new FakeBrowserProvider({ clock }),
      ids,
      clock,
    });
    const names: string[] = [];
    for (const [name, active, projectId] of [
      ['first', true, project.id],
      ['second', false, project.id],
      ['third', true, project.id],
      ['elsewhere', true, other.id],
    ] as const) {
      clock.advance(1_000);
      await create.execute({ ownerId: OWNER, projectId, agent: { name, active } });
      names.push(name);
    }
    const list = new ListAgents({ projects, agents });
    const namesOf = async (activeOnly?: boolean) =>
      (await list.execute({ ownerId: OWNER, projectId: project.id, activeOnly })).map((a) => a.name);
    expect(await namesOf()).toEqual(['third', 'second', 'first']);
    expect(await namesOf(false)).toEqual(['third', 'second', 'first']);
    expect(await namesOf(true)).toEqual(['third', 'first']);
    await expect(list.execute({ ownerId: 'owner-2', projectId: project.id })).rejects.toMatchObject({
      code: 'not_found',
    });
    // Archived projects stay readable.
    project.archive(clock.now());
    await projects.update(project);
    expect(await namesOf(true)).toEqual(['third', 'first']);
  });
});
