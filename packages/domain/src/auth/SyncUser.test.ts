import {
  aProject,
  aUser,
  InMemoryProjectRepository,
  InMemoryUserRepository,
  ManualClock,
  SequentialIdGenerator,
} from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import type { Principal } from './IdentityProvider.ts';
import { SyncUser } from './SyncUser.ts';

const USER = 'user-1';
const principal: Principal = {
  userId: USER,
  email: 'ada@example.com',
  sessionId: 'sign-in-1',
  expiresAt: new Date('2026-03-01T12:15:00.000Z'),
};

function setUp() {
  const clock = new ManualClock('2026-03-01T12:00:00.000Z');
  const users = new InMemoryUserRepository();
  const projects = new InMemoryProjectRepository();
  const syncUser = new SyncUser({ users, projects, ids: new SequentialIdGenerator(), clock });
  const sync = () => syncUser.execute({ principal });
  const allProjects = async () => [
    ...(await projects.listOwned(USER, { archived: false })),
    ...(await projects.listOwned(USER, { archived: true })),
  ];
  return { users, projects, sync, allProjects };
}

describe('SyncUser', () => {
  it('records a new user and gives them the default project', async () => {
    const { users, sync, allProjects } = setUp();
    const { user, project } = await sync();
    expect(user).toEqual({ id: USER, email: 'ada@example.com' });
    expect((await users.findById(USER))?.createdAt.toISOString()).toBe('2026-03-01T12:00:00.000Z');
    expect(project).toMatchObject({
      ownerId: USER,
      name: 'Default Project',
      slug: 'default',
      archived: false,
    });
    expect((await allProjects()).map((p) => p.id)).toEqual([project.id]);
  });

  it('answers the user’s oldest project, archived or not, and creates none', async () => {
    const { users, projects, sync, allProjects } = setUp();
    await users.ensure(aUser({ id: USER, email: 'ada@example.com' }));
    const oldest = aProject({ ownerId: USER, now: new Date('2026-01-01T00:00:00.000Z'), archived: true });
    await projects.add(oldest);
    await projects.add(aProject({ ownerId: USER, now: new Date('2026-02-01T00:00:00.000Z') }));
    const { project } = await sync();
    expect(project.id).toBe(oldest.id);
    expect(await allProjects()).toHaveLength(2);
  });

  it('syncs again to the same project', async () => {
    const { sync, allProjects } = setUp();
    const first = await sync();
    const again = await sync();
    expect(again.project.id).toBe(first.project.id);
    expect(await allProjects()).toHaveLength(1);
  });

  it('gives concurrent first syncs the one project that won the insert', async () => {
    const { projects, sync, allProjects } = setUp();
    const add = projects.add.bind(projects);
    let inserts = 0;
    projects.add = (project) => {
      inserts++;
      return add(project);
    };
    const results = await Promise.all([sync(), sync(), sync()]);
    // Each saw no project and tried the insert: two of them lost on the unique slug.
    expect(inserts).toBe(3);
    const stored = await allProjects();
    expect(stored).toHaveLength(1);
    expect(results.map((r) => r.project.id)).toEqual(Array(3).fill(stored[0]?.id));
  });
});
