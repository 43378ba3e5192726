import { InMemoryProjectRepository, ManualClock, SequentialIdGenerator } from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { asUser } from '../access/Caller.ts';
import { CreateProject } from './CreateProject.ts';
import { PROJECTS_PER_USER_DEFAULT } from './projectRules.ts';

function setUp(maxProjectsPerUser?: number) {
  const projects = new InMemoryProjectRepository();
  const clock = new ManualClock('2026-03-01T12:00:00.000Z');
  const create = new CreateProject({ projects, ids: new SequentialIdGenerator(), clock, maxProjectsPerUser });
  return { projects, create };
}

describe('CreateProject', () => {
  it('creates a project for its owner with a slug derived from the name', async () => {
    const { create, projects } = setUp();
    const project = await create.execute({ caller: asUser('owner-1'), name: '  Checkout Team ' });
    expect(project).toMatchObject({ ownerId: 'owner-1', name: 'Checkout Team', slug: 'checkout-team' });
    expect(await projects.findOwned('owner-1', project.id)).toEqual(project);
  });

  it('refuses a project past the per-account limit, archived ones counted, and stores nothing', async () => {
    const { create, projects } = setUp(2);
    const first = await create.execute({ caller: asUser('owner-1'), name: 'One' });
    first.archive(new Date('2026-03-01T12:00:00.000Z'));
    await projects.update(first);
    await create.execute({ caller: asUser('owner-1'), name: 'Two' });
    await expect(create.execute({ caller: asUser('owner-1'), name: 'Three' })).rejects.toMatchObject({
      code: 'project_limit_reached',
    });
    expect(await projects.listOwned('owner-1', { archived: false })).toHaveLength(1);
    // Another account has its own count.
    await expect(create.execute({ caller: asUser('owner-2'), name: 'Three' })).resolves.toMatchObject({
      ownerId: 'owner-2',
    });
  });

  it('allows 100 projects an account by default', () => {
    expect(PROJECTS_PER_USER_DEFAULT).toBe(100);
  });
});
