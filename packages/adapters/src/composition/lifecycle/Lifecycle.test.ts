import { describe, expect, it } from 'vitest';
import { Lifecycle } from './Lifecycle.ts';
import type { Part, PartPhase } from './Part.ts';

/** A part that notes its starts and stops in `events`, and fails its stop with `fails`. */
function part(events: string[], name: string, phase: PartPhase, fails?: Error): Part {
  return {
    name,
    phase,
    start: () => void events.push(`start ${name}`),
    stop: async () => {
      events.push(`stop ${name}`);
      if (fails) throw fails;
    },
  };
}

describe('Lifecycle', () => {
  it('starts parts in the order they were added, once, and never after stop', async () => {
    const events: string[] = [];
    const lifecycle = new Lifecycle();
    lifecycle.add(part(events, 'a', 'storage'));
    lifecycle.add({ name: 'no start', phase: 'drain', stop: async () => {} });
    lifecycle.add(part(events, 'b', 'drain'));
    lifecycle.start();
    lifecycle.start();
    expect(events).toEqual(['start a', 'start b']);

    const stopped = new Lifecycle();
    stopped.add(part(events.splice(0), 'c', 'drain'));
    await stopped.stop();
    stopped.start();
    expect(events).toEqual([]);
  });

  it('stops phase by phase, the last added first within a phase', async () => {
    const events: string[] = [];
    const lifecycle = new Lifecycle();
    lifecycle.add(part(events, 'database', 'storage'));
    lifecycle.add(part(events, 'queue', 'release'));
    lifecycle.add(part(events, 'bytes', 'flush'));
    lifecycle.add(part(events, 'browsers', 'end-sessions'));
    lifecycle.add(part(events, 'hub', 'drain'));
    lifecycle.add(part(events, 'slot', 'release'));
    lifecycle.add(part(events, 'worker', 'drain'));
    await lifecycle.stop();
    expect(events).toEqual([
      'stop worker',
      'stop hub',
      'stop browsers',
      'stop bytes',
      'stop slot',
      'stop queue',
      'stop database',
    ]);
    expect(lifecycle.stopOrder().map(({ name }) => name)).toEqual(events.map((event) => event.slice(5)));
  });

  it('goes on past a stop that fails, then rejects with its error; a second stop stops nothing again', async () => {
    const events: string[] = [];
    const failure = new Error('the hub would not close');
    const lifecycle = new Lifecycle();
    lifecycle.add(part(events, 'database', 'storage'));
    lifecycle.add(part(events, 'browsers', 'end-sessions'));
    lifecycle.add(part(events, 'hub', 'drain', failure));
    lifecycle.add(part(events, 'worker', 'drain'));
    const stopping = lifecycle.stop();
    await expect(stopping).rejects.toBe(failure);
    expect(events).toEqual(['stop worker', 'stop hub', 'stop browsers', 'stop database']);
    expect(lifecycle.stop()).toBe(stopping);
    await expect(lifecycle.stop()).rejects.toBe(failure);
    expect(events).toHaveLength(4);
  });

  it('rejects with every failure, naming the parts, when several stops fail', async () => {
    const events: string[] = [];
    const lifecycle = new Lifecycle();
    lifecycle.add(part(events, 'database', 'storage', new Error('database')));
    lifecycle.add(part(events, 'browsers', 'end-sessions'));
    lifecycle.add(part(events, 'worker', 'drain', new Error('worker')));
    const error = await lifecycle.stop().then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(AggregateError);
    expect((error as AggregateError).message).toBe('2 parts failed to stop: worker, database');
    expect((error as AggregateError).errors.map((cause: Error) => cause.message)).toEqual([
      'worker',
      'database',
    ]);
    expect(events).toEqual(['stop worker', 'stop browsers', 'stop database']);
  });
});
