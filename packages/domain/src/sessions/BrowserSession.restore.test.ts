import { describe, expect, it } from 'vitest';
import { BrowserSession } from './BrowserSession.ts';

const T0 = new Date('2026-03-01T12:00:00.000Z');

function created(): BrowserSession {
  return BrowserSession.create({
    id: 's-1',
    projectId: 'p-1',
    provider: 'fake',
    settings: {
      name: 'S',
      script: '',
      env: { A: '1' },
      region: 'us-west-2',
      timeoutSec: 300,
      extensionId: null,
      contextId: null,
      agentId: null,
      metadata: { order: 7 },
      keepAlive: false,
    },
    snapshot: {
      providerSessionId: 'ps-1',
      providerProjectId: 'pp',
      status: 'RUNNING',
      connectUrl: 'wss://x/1',
      seleniumRemoteUrl: null,
      startedAt: T0,
      endedAt: null,
      expiresAt: null,
    },
    now: T0,
  });
}

describe('BrowserSession.restore', () => {
  it('rebuilds a created session from its state, derived values and methods included', () => {
    const session = created();
    const restored = BrowserSession.restore({ ...session });
    expect(restored).toBeInstanceOf(BrowserSession);
    expect(restored).toEqual(session);
    expect(restored.isActive).toBe(true);
    expect(restored.endOfLife).toEqual(new Date(T0.getTime() + 300_000));
    restored.end('COMPLETED', T0);
    expect(restored.status).toBe('COMPLETED');
    expect(session.status).toBe('RUNNING');
  });

  it('is what an answered copy is built with: the answer over the session', () => {
    const session = created();
    const answer = session.answer;
    session.end('ERROR', new Date('2026-03-01T12:01:00.000Z'));
    const replayed = session.asAnswered(answer);
    expect(replayed).toBeInstanceOf(BrowserSession);
    expect(replayed.status).toBe('RUNNING');
    expect(replayed.endedAt).toBeNull();
  });
});
