import { describe, expect, it } from 'vitest';
import { asUser } from '../auth/Caller.ts';
import { Project } from '../projects/Project.ts';
import { FakeBrowserProvider } from '../testing/FakeBrowserProvider.ts';
import { InMemoryAgentRepository } from '../testing/InMemoryAgentRepository.ts';
import { InMemoryIdempotencyStore } from '../testing/InMemoryIdempotencyStore.ts';
import { InMemoryProjectRepository } from '../testing/InMemoryProjectRepository.ts';
import { InMemorySessionRepository } from '../testing/InMemorySessionRepository.ts';
import { ManualClock } from '../testing/ManualClock.ts';
import { SequentialIdGenerator } from '../testing/SequentialIdGenerator.ts';
import { CreateSession } from './CreateSession.ts';
import { GetSessionStats } from './GetSessionStats.ts';
import { ReleaseSession } from './ReleaseSession.ts';

const OWNER = 'owner-1';

describe('GetSessionStats', () => {
  it('answers the store’s statistics for the project at the clock’s now', async () => {
    const clock = new ManualClock('2026-03-01T12:00:00.000Z');
    const ids = new SequentialIdGenerator();
    const projects = new InMemoryProjectRepository();
    const sessions = new InMemorySessionRepository();
    const provider = new FakeBrowserProvider({ clock });
    const project = Project.create({
      id: ids.next(),
      ownerId: OWNER,
      name: 'Main',
      slug: 'main',
      now: clock.now(),
    });
    await projects.add(project);
    const create = new CreateSession({
      projects,
      agents: new InMemoryAgentRepository(),
      sessions,
      provider,
      idempotency: new InMemoryIdempotencyStore(),
      ids,
      clock,
    });
    const first = await create.execute({ caller: asUser(OWNER), projectId: project.id, request: {} });
    clock.advance(100_000);
    await create.execute({ caller: asUser(OWNER), projectId: project.id, request: {} });
    await new ReleaseSession({ projects, sessions, provider, clock }).execute({
      caller: asUser(OWNER),
      projectId: project.id,
      sessionId: first.session.id,
    });
    clock.advance(50_000);

    const stats = new GetSessionStats({ projects, sessions, clock });
    expect(await stats.execute({ caller: asUser(OWNER), projectId: project.id })).toEqual({
      total: 2,
      byStatus: { PENDING: 0, RUNNING: 1, COMPLETED: 1, ERROR: 0, TIMED_OUT: 0 },
      createdLast24h: 2,
      avgDurationSec: 100,
      totalBrowserSec: 150,
    });
    expect(await sessions.stats(project.id, clock.now())).toEqual(
      await stats.execute({ caller: asUser(OWNER), projectId: project.id }),
    );
    await expect(stats.execute({ caller: asUser('owner-2'), projectId: project.id })).rejects.toMatchObject({
      code: 'not_found',
    });
  });
});
