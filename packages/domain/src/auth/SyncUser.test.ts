import {
  aProject,
  aUser,
  FakeApiKeySecrets,
  InMemoryInvitationRepository,
  InMemoryProjectRepository,
  InMemoryUserRepository,
  ManualClock,
  SequentialIdGenerator,
} from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { Invitation } from '../members/Invitation.ts';
import { AccountAdmission } from './AccountAdmission.ts';
import type { Principal } from './IdentityProvider.ts';
import { SyncUser } from './SyncUser.ts';
import type { SignupMode } from './signupModes.ts';

const USER = 'user-1';
const principal: Principal = {
  userId: USER,
  email: 'ada@example.com',
  sessionId: 'sign-in-1',
  expiresAt: new Date('2026-03-01T12:15:00.000Z'),
};

function setUp(options: { signupMode?: SignupMode; adminEmails?: string[] } = {}) {
  const clock = new ManualClock('2026-03-01T12:00:00.000Z');
  const ids = new SequentialIdGenerator();
  const users = new InMemoryUserRepository();
  const projects = new InMemoryProjectRepository();
  const invitations = new InMemoryInvitationRepository();
  const secrets = new FakeApiKeySecrets();
  const admission = new AccountAdmission({ invitations, secrets, clock, ...options });
  const syncUser = new SyncUser({ users, admission, projects, ids, clock });
  const sync = () => syncUser.execute({ principal });
  /** Every project the user owns, archived ones included. */
  const allProjects = async () => projects.all().filter((p) => p.ownerId === USER);
  /** Stores an open invitation for `email`: a project's, or (`projectId` null) an operator's. */
  const invite = async (email: string, projectId: string | null) => {
    const token = secrets.generate('bdi_');
    await invitations.add(
      Invitation.create({
        id: ids.next(),
        projectId,
        email,
        role: projectId === null ? null : 'developer',
        digest: secrets.digest(token),
        invitedBy: 'operator-1',
        now: clock.now(),
        expiresAt: new Date(clock.now().getTime() + 60_000),
      }),
    );
  };
  return { clock, users, projects, sync, allProjects, invite };
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

  it('refuses a disabled account with account_disabled and creates no project', async () => {
    const { users, clock, sync, allProjects } = setUp();
    await users.ensure(aUser({ id: USER, email: 'ada@example.com' }));
    await users.setDisabled(USER, clock.now());
    await expect(sync()).rejects.toMatchObject({ code: 'account_disabled' });
    expect(await allProjects()).toEqual([]);
  });

  it('with SIGNUP=invite, refuses an uninvited new account with signup_closed and records nobody', async () => {
    const { users, sync, allProjects } = setUp({ signupMode: 'invite' });
    await expect(sync()).rejects.toMatchObject({ code: 'signup_closed' });
    expect(await users.findById(USER)).toBeNull();
    expect(await allProjects()).toEqual([]);
  });

  it('with SIGNUP=invite, admits a new account a project invited', async () => {
    const { sync, invite } = setUp({ signupMode: 'invite' });
    await invite('ada@example.com', 'project-1');
    await expect(sync()).resolves.toMatchObject({ user: { id: USER }, project: { slug: 'default' } });
  });

  it('with SIGNUP=closed, admits a new account only on an operator’s invitation', async () => {
    const { sync, invite } = setUp({ signupMode: 'closed' });
    await invite('ada@example.com', 'project-1');
    await expect(sync()).rejects.toMatchObject({ code: 'signup_closed' });
    await invite('ada@example.com', null);
    await expect(sync()).resolves.toMatchObject({ user: { id: USER } });
  });

  it('admits an operator’s new account whatever the sign-up mode', async () => {
    const { sync } = setUp({ signupMode: 'closed', adminEmails: ['ada@example.com'] });
    await expect(sync()).resolves.toMatchObject({ user: { id: USER } });
  });

  it('syncs a known account again in a closed installation', async () => {
    const { users, sync } = setUp({ signupMode: 'closed' });
    await users.ensure(aUser({ id: USER, email: 'ada@example.com' }));
    await expect(sync()).resolves.toMatchObject({ user: { id: USER } });
  });
});
