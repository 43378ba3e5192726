import { givenTwoInstances } from '@browserdeck/testing';
import { describe, expect, it } from 'vitest';
import { EndLostInstanceSessions } from './EndLostInstanceSessions.ts';
import { sessionReach } from './sessionReach.ts';

describe('EndLostInstanceSessions', () => {
  it('ends ERROR, now, the active sessions the lost instance held, and releases them at the provider', async () => {
    const { clock, sessions, provider, other, project, startSession } = await givenTwoInstances();
    const held = [await startSession(), await startSession()];
    const released = await startSession();
    released.end('COMPLETED', clock.now());
    await sessions.update(released);
    clock.advance(5_000);
    provider.calls.length = 0;
    // Instance b sweeps instance a, which is gone.
    const ended = await new EndLostInstanceSessions({ sessions, provider: other, clock }).execute({
      instanceId: 'instance-a',
    });
    expect(ended).toBe(2);
    for (const session of held) {
      const stored = (await sessions.findInProject(project.id, session.id))!;
      expect(stored.status).toBe('ERROR');
      expect(stored.endedAt?.toISOString()).toBe('2026-03-01T12:00:05.000Z');
    }
    expect((await sessions.findInProject(project.id, released.id))!.status).toBe('COMPLETED');
    expect(other.calls.filter((c) => c.op === 'release').map((c) => c.providerSessionId)).toEqual(
      held.map((s) => s.providerSessionId),
    );
  });

  it('ends them even when the provider cannot release them, and leaves other instances’ sessions alone', async () => {
    const { clock, sessions, other, project, startSession } = await givenTwoInstances();
    const held = await startSession();
    other.failNext('release', 'provider_unavailable');
    const ended = await new EndLostInstanceSessions({ sessions, provider: other, clock }).execute({
      instanceId: 'instance-b',
    });
    expect(ended).toBe(0);
    expect((await sessions.findInProject(project.id, held.id))!.status).toBe('RUNNING');
    const again = await new EndLostInstanceSessions({ sessions, provider: other, clock }).execute({
      instanceId: 'instance-a',
    });
    expect(again).toBe(1);
    expect((await sessions.findInProject(project.id, held.id))!.status).toBe('ERROR');
  });
});

describe('sessionReach with a provider that reaches other instances', () => {
  it('takes another instance’s session as in reach', async () => {
    const { clock, other, startSession } = await givenTwoInstances();
    const session = await startSession();
    expect(sessionReach(session, other, clock.now())).toBe('elsewhere');
    const routed = Object.assign(Object.create(other), { reachesOtherInstances: true });
    expect(sessionReach(session, routed, clock.now())).toBe('here');
  });
});
