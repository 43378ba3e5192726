import { describe, expect, it } from 'vitest';
import { rewrapWhenChanged, wrapCapabilities, wrapMethods } from './wrapMethods.ts';

class Counter {
  #count = 0;
  readonly label = 'counter';
  add(by: number): number {
    this.#count += by;
    return this.#count;
  }
}

describe('wrapMethods', () => {
  it('passes every method call through the wrapper, on the object itself, and reads the rest through', () => {
    const seen: string[] = [];
    const counter = wrapMethods(new Counter(), (method, args, call) => {
      seen.push(`${method}(${args.join(',')})`);
      return call();
    });
    expect(counter.add(2)).toBe(2);
    expect(counter.add(3)).toBe(5);
    expect(counter.label).toBe('counter');
    expect(seen).toEqual(['add(2)', 'add(3)']);
  });

  it('lets the wrapper answer instead of the object', () => {
    const counter = wrapMethods(new Counter(), () => 42);
    expect(counter.add(1)).toBe(42);
  });
});

describe('wrapCapabilities', () => {
  it('wraps the capabilities it names, passes the others and absent ones as they are', () => {
    const store = { get: () => 'stored' };
    const files = { downloads: () => 'zip' };
    const wrapped = wrapCapabilities({ files, contexts: store } as Record<string, object | undefined>, {
      files: () => 'routed',
      liveView: () => 'never',
    });
    expect((wrapped.files as typeof files).downloads()).toBe('routed');
    expect(wrapped.contexts).toBe(store);
    expect('liveView' in wrapped).toBe(false);
  });
});

describe('rewrapWhenChanged', () => {
  it('wraps once while the object stays, again when it changes', () => {
    let current = { n: 1 };
    let wraps = 0;
    const read = rewrapWhenChanged(
      () => current,
      (c) => {
        wraps++;
        return { n: c.n * 10 };
      },
    );
    expect(read()).toEqual({ n: 10 });
    expect(read()).toBe(read());
    expect(wraps).toBe(1);
    current = { n: 2 };
    expect(read()).toEqual({ n: 20 });
    expect(wraps).toBe(2);
  });
});
