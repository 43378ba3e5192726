import type { ProxyBytesDelta } from '@browserdeck/domain';
import { aSession, InMemorySessionRepository } from '@browserdeck/testing';
import { pino } from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ProxyBytesFlusher } from './ProxyBytesFlusher.ts';

/** A meter the test fills: each `take` hands out what was added since the last. */
function meter() {
  let held: ProxyBytesDelta[] = [];
  return {
    add: (providerSessionId: string, bytes: number) => held.push({ providerSessionId, bytes }),
    take: () => {
      const taken = held;
      held = [];
      return taken;
    },
  };
}

async function setUp(options: { unmatchedTries?: number } = {}) {
  const sessions = new InMemorySessionRepository();
  const a = aSession({ providerSessionId: 'p-a' });
  const b = aSession({ providerSessionId: 'p-b', status: 'COMPLETED' });
  await sessions.add(a);
  await sessions.add(b);
  const bytes = meter();
  const warnings: string[] = [];
  const logger = pino({ level: 'warn' }, { write: (line: string) => warnings.push(line) });
  const flusher = new ProxyBytesFlusher({ take: bytes.take, sessions, logger, intervalSec: 5, ...options });
  const stored = async () =>
    Promise.all([a, b].map(async (s) => (await sessions.findInProject(s.projectId, s.id))?.proxyBytes));
  return { sessions, bytes, flusher, stored, warnings };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('ProxyBytesFlusher', () => {
  it('stores what the meter took, summed per session, ended sessions too', async () => {
    const { bytes, flusher, stored } = await setUp();
    bytes.add('p-a', 100);
    bytes.add('p-b', 7);
    bytes.add('p-a', 23);
    await flusher.flush();
    expect(await stored()).toEqual([123, 7]);
    await flusher.flush();
    expect(await stored()).toEqual([123, 7]);
    bytes.add('p-a', 1);
    await flusher.flush();
    expect(await stored()).toEqual([124, 7]);
  });

  it('keeps the bytes when storing fails, and stores them with the next flush: nothing lost, nothing twice', async () => {
    const { sessions, bytes, flusher, stored, warnings } = await setUp();
    bytes.add('p-a', 500);
    sessions.failNextAddProxyBytes = new Error('database is down');
    await flusher.flush();
    expect(await stored()).toEqual([0, 0]);
    expect(flusher.pendingBytes).toEqual(new Map([['p-a', 500]]));
    expect(warnings.join('')).toContain('could not store proxy bytes');
    bytes.add('p-a', 5);
    await flusher.flush();
    expect(await stored()).toEqual([505, 0]);
    expect(flusher.pendingBytes.size).toBe(0);
  });

  it('holds bytes of a session not stored yet for a few flushes, then drops them with a warning', async () => {
    const { sessions, bytes, flusher, warnings } = await setUp({ unmatchedTries: 3 });
    bytes.add('p-new', 40);
    await flusher.flush();
    await flusher.flush();
    expect(flusher.pendingBytes).toEqual(new Map([['p-new', 40]]));
    const late = aSession({ providerSessionId: 'p-new' });
    await sessions.add(late);
    await flusher.flush();
    expect((await sessions.findInProject(late.projectId, late.id))?.proxyBytes).toBe(40);

    bytes.add('p-never', 9);
    for (let i = 0; i < 3; i++) await flusher.flush();
    expect(flusher.pendingBytes.size).toBe(0);
    expect(warnings.join('')).toContain('dropped proxy bytes');
  });

  it('flushes every intervalSec once started, and once more at close, after which it stops', async () => {
    vi.useFakeTimers();
    const { bytes, flusher, stored } = await setUp();
    flusher.start();
    bytes.add('p-a', 10);
    await vi.advanceTimersByTimeAsync(4_999);
    expect(await stored()).toEqual([0, 0]);
    await vi.advanceTimersByTimeAsync(1);
    expect(await stored()).toEqual([10, 0]);
    bytes.add('p-b', 3);
    await flusher.close();
    expect(await stored()).toEqual([10, 3]);
    bytes.add('p-a', 1);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(await stored()).toEqual([10, 3]);
  });

  it('survives a meter that throws', async () => {
    const sessions = new InMemorySessionRepository();
    const warnings: string[] = [];
    const flusher = new ProxyBytesFlusher({
      take: () => {
        throw new Error('meter broke');
      },
      sessions,
      logger: pino({ level: 'warn' }, { write: (line: string) => warnings.push(line) }),
      intervalSec: 5,
    });
    await flusher.flush();
    expect(warnings.join('')).toContain('could not read the proxy byte meter');
  });
});

describe('ProxyBytesFlusher: its interval', () => {
  it('refuses an interval that is not a number of seconds above 0 and at most 3600, naming the option', () => {
    const sessions = new InMemorySessionRepository();
    const logger = pino({ level: 'silent' });
    for (const intervalSec of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, 3601])
      expect(() => new ProxyBytesFlusher({ take: () => [], sessions, logger, intervalSec })).toThrow(
        /proxyBytesFlushSec/,
      );
  });
});
