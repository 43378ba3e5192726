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
import { ArchiveProject } from './ArchiveProject.ts';

const OWNER = 'owner-1';

async function setUp() {
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
  const project = aProject({ ownerId: OWNER, now: clock.now() });
  await projects.add(project);
  clock.advance(60_000);
  const archiveProject = new ArchiveProject({ projects, clock, audit });
  const archive = (caller: Caller = asUser(OWNER)) =>
    archiveProject.execute({ caller, projectId: project.id });
  const stored = async () => (await projects.findAccess(project.id, OWNER))?.project;
  /** The owner's projects with the archived flag, newest first. */
  const owned = async (archived: boolean) =>
    (await projects.listForMember(OWNER, { archived }))
      .filter((g) => g.role === 'owner')
      .map((g) => g.project);
  return { clock, projects, members, auditLog, project, archive, stored, owned };
}

describe('ArchiveProject', () => {
  it('archives the project and stores it, updated now', async () => {
    const { archive, stored, owned } = await setUp();
    const archived = await archive();
    expect(archived).toMatchObject({ archived: true });
    expect(await stored()).toMatchObject({ archived: true });
    expect((await stored())?.updatedAt.toISOString()).toBe('2026-03-01T12:01:00.000Z');
    expect(await owned(false)).toEqual([]);
    expect((await owned(true)).map((p) => p.id)).toEqual([archived.id]);
  });

  it('records the archive once in the audit log, with the acting user', async () => {
    const { archive, auditLog, project } = await setUp();
    await archive();
    await archive();
    expect(auditLog.entries()).toEqual([
      expect.objectContaining({
        projectId: project.id,
        action: 'project.archive',
        actor: expect.objectContaining({ type: 'user', id: OWNER }),
        target: { type: 'project', id: project.id },
      }),
    ]);
  });

  it('lets an admin archive it and refuses a developer with forbidden_for_role', async () => {
    const { archive, stored, members, project, clock } = await setUp();
    await members.add({ projectId: project.id, userId: 'dev-1', role: 'developer', now: clock.now() });
    await members.add({ projectId: project.id, userId: 'admin-1', role: 'admin', now: clock.now() });
    await expect(archive(asUser('dev-1'))).rejects.toMatchObject({ code: 'forbidden_for_role' });
    expect((await stored())?.archived).toBe(false);
    await expect(archive(asUser('admin-1'))).resolves.toMatchObject({ archived: true });
  });

  it('succeeds again on an archived project and changes nothing', async () => {
    const { archive, stored, clock } = await setUp();
    await archive();
    clock.advance(60_000);
    const again = await archive();
    expect(again.archived).toBe(true);
    expect((await stored())?.updatedAt.toISOString()).toBe('2026-03-01T12:01:00.000Z');
  });

  it('answers not_found for another owner’s project and leaves it active', async () => {
    const { archive, stored } = await setUp();
    await expect(archive(asUser('owner-2'))).rejects.toMatchObject({ code: 'not_found' });
    expect((await stored())?.archived).toBe(false);
  });

  it('refuses the project’s own API key with forbidden_for_api_key and leaves it active', async () => {
    const { archive, project, stored } = await setUp();
    await expect(
      archive({ kind: 'apiKey', keyId: 'k', projectId: project.id, keyName: 'CI', role: 'developer' }),
    ).rejects.toMatchObject({ code: 'forbidden_for_api_key' });
    expect((await stored())?.archived).toBe(false);
  });
});
