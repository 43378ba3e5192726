import {
  InMemoryAuditLog,
  InMemoryProjectRepository,
  ManualClock,
  SequentialIdGenerator,
} from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { asUser } from '../access/Caller.ts';
import { AuditTrail } from '../audit/AuditTrail.ts';
import { directTransactions } from '../shared/Transactions.ts';
import { CreateProject } from './CreateProject.ts';
import { PROJECTS_PER_USER_DEFAULT } from './projectRules.ts';

function setUp(maxProjectsPerUser?: number) {
  const projects = new InMemoryProjectRepository();
  const clock = new ManualClock('2026-03-01T12:00:00.000Z');
  const ids = new SequentialIdGenerator();
  const auditLog = new InMemoryAuditLog();
  const audit = new AuditTrail({ auditLog, transactions: directTransactions, ids, clock });
  const create = new CreateProject({ projects, ids, clock, audit, maxProjectsPerUser });
  /** The owner's projects with the archived flag. */
  const owned = async (ownerId: string, archived: boolean) =>
    (await projects.listForMember(ownerId, { archived }))
      .filter((g) => g.role === 'owner')
      .map((g) => g.project);
  return { projects, auditLog, create, owned };
}

describe('CreateProject', () => {
  it('creates a project for its owner with a slug derived from the name', async () => {
    const { create, projects, auditLog } = setUp();
    const project = await create.execute({ caller: asUser('owner-1'), name: '  Checkout Team ' });
    expect(project).toMatchObject({ ownerId: 'owner-1', name: 'Checkout Team', slug: 'checkout-team' });
    expect(await projects.findAccess(project.id, 'owner-1')).toEqual({
      project,
      role: 'owner',
      ownerDisabled: false,
    });
    expect(auditLog.entries()).toEqual([
      expect.objectContaining({
        projectId: project.id,
        action: 'project.create',
        actor: expect.objectContaining({ type: 'user', id: 'owner-1' }),
        target: { type: 'project', id: project.id },
      }),
    ]);
  });

  it('refuses a project past the per-account limit, archived ones counted, and stores nothing', async () => {
    const { create, projects, owned } = setUp(2);
    const first = await create.execute({ caller: asUser('owner-1'), name: 'One' });
    first.archive(new Date('2026-03-01T12:00:00.000Z'));
    await projects.update(first);
    await create.execute({ caller: asUser('owner-1'), name: 'Two' });
    await expect(create.execute({ caller: asUser('owner-1'), name: 'Three' })).rejects.toMatchObject({
      code: 'project_limit_reached',
    });
    expect(await owned('owner-1', false)).toHaveLength(1);
    // Another account has its own count.
    await expect(create.execute({ caller: asUser('owner-2'), name: 'Three' })).resolves.toMatchObject({
      ownerId: 'owner-2',
    });
  });

  it('allows 100 projects an account by default', () => {
    expect(PROJECTS_PER_USER_DEFAULT).toBe(100);
  });
});
