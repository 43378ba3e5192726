import { describe, expect, it } from 'vitest';
import { InMemoryRunChanges } from './InMemoryRunChanges.ts';

describe('InMemoryRunChanges', () => {
  it('wakes readers of the notified run only, at once', async () => {
    const changes = new InMemoryRunChanges();
    const woken: string[] = [];
    const a = changes.next('a', 60_000).then(() => woken.push('a'));
    void changes.next('b', 60_000).then(() => woken.push('b'));
    await changes.untilWaiting('a');
    changes.notify('a');
    await a;
    expect(woken).toEqual(['a']);
    expect(changes.waitingOn('b')).toBe(1);
    changes.notify('b');
    expect(changes.notified).toEqual(['a', 'b']);
  });

  it('resolves after maxWaitMs without a notification, and at once for an aborted signal', async () => {
    const changes = new InMemoryRunChanges();
    await changes.next('a', 5);
    expect(changes.waitingOn('a')).toBe(0);
    expect(changes.timedOut).toEqual(['a']);
    const controller = new AbortController();
    const waiting = changes.next('a', 60_000, controller.signal);
    controller.abort();
    await waiting;
    await changes.next('a', 60_000, controller.signal);
    const notified = changes.next('b', 60_000);
    changes.notify('b');
    await notified;
    // Only the wait that ran out counts: neither an abort nor a notification does.
    expect(changes.timedOut).toEqual(['a']);
  });

  it('tells onWait who waits and for how long', async () => {
    const changes = new InMemoryRunChanges();
    const seen: Array<[string, number]> = [];
    changes.onWait = (runId, ms) => {
      seen.push([runId, ms]);
      changes.notify(runId);
    };
    await changes.next('r', 1234);
    expect(seen).toEqual([['r', 1234]]);
  });
});
