import {
  aProject,
  InMemoryAuditLog,
  InMemoryMemberRepository,
  InMemoryProjectRepository,
  ManualClock,
  SequentialIdGenerator,
} from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { asUser, type Caller } from '../access/Caller.ts';
import { AuditTrail } from '../audit/AuditTrail.ts';
import { directTransactions } from '../shared/Transactions.ts';
import { UpdateProject } from './UpdateProject.ts';

const OWNER = 'owner-1';

async function setUp(options: { archived?: boolean } = {}) {
  const clock = new ManualClock('2026-03-01T12:00:00.000Z');
  const projects = new InMemoryProjectRepository();
  const members = new InMemoryMemberRepository({ projects });
  const auditLog = new InMemoryAuditLog();
  const audit = new AuditTrail({
    auditLog,
    transactions: directTransactions,
    ids: new SequentialIdGenerator(),
    clock,
  });
  const project = aProject({ ownerId: OWNER, name: 'Main', slug: 'main', now: clock.now(), ...options });
  await projects.add(project);
  clock.advance(60_000);
  const updateProject = new UpdateProject({ projects, clock, audit });
  const update = (changes: { name?: string; archived?: boolean }, caller: Caller = asUser(OWNER)) =>
    updateProject.execute({ caller, projectId: project.id, ...changes });
  const stored = async () => (await projects.findAccess(project.id, OWNER))!.project;
  return { clock, members, auditLog, project, update, stored };
}

describe('UpdateProject', () => {
  it('renames with the name trimmed, keeps the slug and stores it, updated now', async () => {
    const { update, stored } = await setUp();
    const renamed = await update({ name: '  Checkout  ' });
    expect(renamed).toMatchObject({ name: 'Checkout', slug: 'main', archived: false });
    expect(await stored()).toMatchObject({ name: 'Checkout', slug: 'main' });
    expect((await stored()).updatedAt.toISOString()).toBe('2026-03-01T12:01:00.000Z');
  });

  it('records a rename as project.update and an archive alone as project.archive', async () => {
    const { update, auditLog, project } = await setUp();
    await update({ name: 'Checkout' });
    await update({ archived: true });
    expect(auditLog.entries().map((e) => [e.action, e.actor.id, e.target.id])).toEqual([
      ['project.archive', OWNER, project.id],
      ['project.update', OWNER, project.id],
    ]);
  });

  it('lets an admin rename it and refuses a developer with forbidden_for_role', async () => {
    const { update, stored, members, project, clock } = await setUp();
    await members.add({ projectId: project.id, userId: 'admin-1', role: 'admin', now: clock.now() });
    await members.add({ projectId: project.id, userId: 'dev-1', role: 'developer', now: clock.now() });
    await expect(update({ name: 'Dev' }, asUser('dev-1'))).rejects.toMatchObject({
      code: 'forbidden_for_role',
    });
    expect((await stored()).name).toBe('Main');
    await expect(update({ name: 'Admin' }, asUser('admin-1'))).resolves.toMatchObject({ name: 'Admin' });
  });

  it('archives with archived: true and restores with archived: false', async () => {
    const { update, stored } = await setUp();
    await update({ archived: true });
    expect((await stored()).archived).toBe(true);
    await update({ archived: false });
    expect((await stored()).archived).toBe(false);
  });

  it('renames and restores an archived project in one call', async () => {
    const { update, stored } = await setUp({ archived: true });
    await update({ name: 'Back', archived: false });
    expect(await stored()).toMatchObject({ name: 'Back', archived: false });
  });

  it('refuses a call with neither name nor archived with validation_failed', async () => {
    const { update, stored } = await setUp();
    await expect(update({})).rejects.toMatchObject({
      code: 'validation_failed',
      errors: [expect.objectContaining({ path: '' })],
    });
    expect((await stored()).updatedAt.toISOString()).toBe('2026-03-01T12:00:00.000Z');
  });

  it.each([
    ['a blank name', '   '],
    ['a name over 100 characters', 'n'.repeat(101)],
    ['a control character in the name', 'Ma\u0000in'],
  ])('refuses %s with validation_failed on name and changes nothing', async (_, name) => {
    const { update, stored } = await setUp();
    await expect(update({ name, archived: true })).rejects.toMatchObject({
      code: 'validation_failed',
      errors: [expect.objectContaining({ path: 'name' })],
    });
    expect(await stored()).toMatchObject({ name: 'Main', archived: false });
  });

  it('answers not_found for another owner and refuses an API key with forbidden_for_api_key', async () => {
    const { update, project, stored } = await setUp();
    await expect(update({ name: 'Theirs' }, asUser('owner-2'))).rejects.toMatchObject({ code: 'not_found' });
    const key: Caller = {
      kind: 'apiKey',
      keyId: 'k',
      projectId: project.id,
      keyName: 'CI',
      role: 'developer',
    };
    await expect(update({ name: 'Keyed' }, key)).rejects.toMatchObject({ code: 'forbidden_for_api_key' });
    expect((await stored()).name).toBe('Main');
  });
});
