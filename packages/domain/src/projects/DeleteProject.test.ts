import type { FakeBrowserProvider } from '@browserdeck/testing';
import {
  aRun,
  givenSessionWorld,
  givenTwoInstances,
  InMemoryMemberRepository,
  InMemoryRunQueue,
  InMemoryRunRepository,
  InMemorySessionRepository,
} from '@browserdeck/testing';
import { describe, expect, it, vi } from 'vitest';
import { asUser } from '../access/Caller.ts';
import { CreateSession } from '../sessions/CreateSession.ts';
import { ReleaseSession } from '../sessions/ReleaseSession.ts';
import type { Logger } from '../shared/Logger.ts';
import { DeleteProject } from './DeleteProject.ts';

const OWNER = 'owner-1';

async function setUp() {
  const world = await givenSessionWorld();
  const { clock, projects, sessions, provider, project, addProject, startSession, audit, auditLog } = world;
  const { runs, runQueue, runChanges } = world;
  const other = await addProject('Other', 'other');
  const start = (projectId = project.id) => startSession({}, projectId);
  const [a, b, ended, elsewhere] = [await start(), await start(), await start(), await start(other.id)];
  await new ReleaseSession({ projects, sessions, provider, clock }).execute({
    caller: asUser(OWNER),
    projectId: project.id,
    sessionId: ended!.id,
  });
  provider.calls.length = 0;
  const warnings: Array<{ details: Record<string, unknown>; message: string }> = [];
  const logger: Logger = { warn: (details, message) => warnings.push({ details, message }), error: () => {} };
  const deleteProject = new DeleteProject({
    projects,
    audit,
    sessions,
    provider,
    runs,
    runQueue,
    runChanges,
    clock,
    logger,
  });
  const releases = () => provider.calls.filter((c) => c.op === 'release');
  return {
    clock,
    projects,
    sessions,
    provider,
    runs,
    runQueue,
    runChanges,
    auditLog,
    project,
    other,
    a: a!,
    b: b!,
    ended: ended!,
    elsewhere: elsewhere!,
    deleteProject,
    warnings,
    releases,
  };
}

describe('DeleteProject with sessions', () => {
  it('releases the project’s active sessions at the provider before deleting it', async () => {
    const { projects, provider, project, a, b, elsewhere, deleteProject, releases } = await setUp();
    const releasedBeforeDelete: number[] = [];
    const remove = projects.delete.bind(projects);
    vi.spyOn(projects, 'delete').mockImplementation(async (ownerId, projectId) => {
      releasedBeforeDelete.push(releases().length);
      return remove(ownerId, projectId);
    });
    await deleteProject.execute({ caller: asUser(OWNER), projectId: project.id });
    expect(
      releases()
        .map((c) => (c.op === 'release' ? c.providerSessionId : ''))
        .sort(),
    ).toEqual([a.providerSessionId, b.providerSessionId].sort());
    expect(releasedBeforeDelete).toEqual([2]);
    expect(provider.running).toEqual([elsewhere.providerSessionId]);
    expect(await projects.findAccess(project.id, OWNER)).toBeNull();
  });

  it('logs a release that fails, with the provider session id, and deletes anyway', async () => {
    const { projects, provider, project, a, b, deleteProject, warnings, releases } = await setUp();
    provider.failNext('release', 'provider_unavailable');
    await deleteProject.execute({ caller: asUser(OWNER), projectId: project.id });
    expect(releases()).toHaveLength(2);
    expect(warnings).toHaveLength(1);
    const failed = warnings[0]!.details.providerSessionId;
    expect([a.providerSessionId, b.providerSessionId]).toContain(failed);
    expect(warnings[0]!.details).toMatchObject({
      projectId: project.id,
      error: expect.stringContaining('provider_unavailable'),
    });
    // The other one was released; the failed one is still running at the provider.
    expect(provider.running).toContain(failed);
    expect(provider.running).not.toContain(
      failed === a.providerSessionId ? b.providerSessionId : a.providerSessionId,
    );
    expect(await projects.findAccess(project.id, OWNER)).toBeNull();
  });

  it('removes the project’s context profiles with it, and no other project’s', async () => {
    const { provider, project, other, deleteProject } = await setUp();
    const contexts = provider.contexts!;
    const [mine, theirs] = [await contexts.create(project.id), await contexts.create(other.id)];
    await deleteProject.execute({ caller: asUser(OWNER), projectId: project.id });
    expect(await contexts.get(project.id, mine.id)).toBeNull();
    expect(await contexts.get(other.id, theirs.id)).not.toBeNull();
  });

  it('records the delete in the audit log, with the owner as the actor', async () => {
    const { project, deleteProject, auditLog } = await setUp();
    await deleteProject.execute({ caller: asUser(OWNER), projectId: project.id });
    expect(auditLog.entries()[0]).toMatchObject({
      projectId: project.id,
      action: 'project.delete',
      actor: { type: 'user', id: OWNER },
      target: { type: 'project', id: project.id },
    });
  });

  it('refuses an admin with forbidden_for_role: only the owner deletes, and nothing is released', async () => {
    const { projects, project, deleteProject, releases, clock } = await setUp();
    const members = new InMemoryMemberRepository({ projects });
    await members.add({ projectId: project.id, userId: 'admin-1', role: 'admin', now: clock.now() });
    await expect(
      deleteProject.execute({ caller: asUser('admin-1'), projectId: project.id }),
    ).rejects.toMatchObject({ code: 'forbidden_for_role' });
    expect(releases()).toEqual([]);
    expect(await projects.findAccess(project.id, OWNER)).not.toBeNull();
  });

  it('answers not_found for another owner, releasing nothing', async () => {
    const { projects, project, deleteProject, releases } = await setUp();
    await expect(
      deleteProject.execute({ caller: asUser('owner-2'), projectId: project.id }),
    ).rejects.toMatchObject({
      code: 'not_found',
    });
    expect(releases()).toEqual([]);
    expect(await projects.findAccess(project.id, OWNER)).not.toBeNull();
  });

  it('deletes without provider calls when the project has no active session', async () => {
    const { projects, provider, addProject, audit } = await givenSessionWorld();
    const idle = await addProject('Idle', 'idle');
    const runs = new InMemoryRunRepository();
    const runQueue = new InMemoryRunQueue();
    await new DeleteProject({
      projects,
      audit,
      sessions: new InMemorySessionRepository(),
      provider,
      runs,
      runQueue,
    }).execute({
      caller: asUser(OWNER),
      projectId: idle.id,
    });
    expect(provider.calls).toEqual([]);
    expect(await projects.findAccess(idle.id, OWNER)).toBeNull();
  });
});

describe('DeleteProject with runs', () => {
  it('cancels the project’s QUEUED and RUNNING runs before deleting it, interrupting and notifying each', async () => {
    const { clock, projects, runs, runQueue, runChanges, project, other, deleteProject } = await setUp();
    const queued = aRun({ projectId: project.id, ownerId: OWNER });
    const running = aRun({ projectId: project.id, ownerId: OWNER, status: 'RUNNING' });
    const done = aRun({ projectId: project.id, ownerId: OWNER, status: 'SUCCEEDED' });
    const elsewhere = aRun({ projectId: other.id, ownerId: OWNER, status: 'RUNNING' });
    for (const run of [queued, running, done, elsewhere]) await runs.add(run);
    const statusesAtDelete: string[] = [];
    const remove = projects.delete.bind(projects);
    vi.spyOn(projects, 'delete').mockImplementation(async (ownerId, projectId) => {
      for (const run of [queued, running, done]) statusesAtDelete.push((await runs.findById(run.id))!.status);
      return remove(ownerId, projectId);
    });
    clock.advance(1_000);
    await deleteProject.execute({ caller: asUser(OWNER), projectId: project.id });
    expect(statusesAtDelete).toEqual(['CANCELED', 'CANCELED', 'SUCCEEDED']);
    expect(await runs.findById(running.id)).toMatchObject({
      error: { code: 'canceled', message: 'The run was canceled: its project was deleted.' },
      endedAt: clock.now(),
      workerId: null,
    });
    expect(runQueue.interrupted.sort()).toEqual([queued.id, running.id].sort());
    expect(runChanges.notified.sort()).toEqual([queued.id, running.id].sort());
    expect((await runs.findById(elsewhere.id))!.status).toBe('RUNNING');
    expect(await projects.findAccess(project.id, OWNER)).toBeNull();
  });

  it('cancels nothing for another owner', async () => {
    const { runs, runQueue, project, deleteProject } = await setUp();
    const running = aRun({ projectId: project.id, ownerId: OWNER, status: 'RUNNING' });
    await runs.add(running);
    await expect(
      deleteProject.execute({ caller: asUser('owner-2'), projectId: project.id }),
    ).rejects.toMatchObject({
      code: 'not_found',
    });
    expect((await runs.findById(running.id))!.status).toBe('RUNNING');
    expect(runQueue.interrupted).toEqual([]);
  });
});

describe('DeleteProject with sessions on two instances of a provider whose browsers live in one process', () => {
  it('releases its own sessions, refuses while another instance holds some, and deletes once retried there', async () => {
    const world = await givenTwoInstances();
    const { projects, sessions, provider, other, project, clock, runs, runQueue, audit } = world;
    const onA = await world.startSession();
    const { session: onB } = await new CreateSession({ ...world, provider: other }).execute({
      caller: asUser(OWNER),
      projectId: project.id,
      request: {},
    });
    provider.calls.length = 0;
    other.calls.length = 0;
    const deleteOn = (p: FakeBrowserProvider) =>
      new DeleteProject({ projects, audit, sessions, provider: p, runs, runQueue, clock }).execute({
        caller: asUser(OWNER),
        projectId: project.id,
      });
    clock.advance(5_000);

    await expect(deleteOn(other)).rejects.toMatchObject({ code: 'session_on_other_instance' });
    expect(await projects.findAccess(project.id, OWNER)).not.toBeNull();
    // b released its own browser and stored that; a's session and browser are as they were.
    expect(other.calls).toEqual([
      { op: 'release', providerSessionId: onB.providerSessionId, providerProjectId: onB.providerProjectId },
    ]);
    expect(other.running).toEqual([]);
    expect(await sessions.findInProject(project.id, onB.id)).toMatchObject({
      status: 'COMPLETED',
      endedAt: clock.now(),
    });
    expect(provider.calls).toEqual([]);
    expect(provider.running).toEqual([onA.providerSessionId]);
    expect(await sessions.findInProject(project.id, onA.id)).toEqual(onA);

    await deleteOn(provider);
    expect(provider.running).toEqual([]);
    expect(await projects.findAccess(project.id, OWNER)).toBeNull();
  });
});
