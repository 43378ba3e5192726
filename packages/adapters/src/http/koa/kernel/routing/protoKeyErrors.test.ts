import { describe, expect, it } from 'vitest';
import { protoKeyErrors } from './protoKeyErrors.ts';

describe('protoKeyErrors', () => {
  it('names every own __proto__ key with its dotted path, at any depth and in arrays', () => {
    const body = JSON.parse(
      '{"__proto__":1,"env":{"__proto__":"x","A":"1"},"list":[{"b":{"__proto__":{}}}]}',
    );
    expect(
      protoKeyErrors(body)
        .map((e) => e.path)
        .sort(),
    ).toEqual(['__proto__', 'env.__proto__', 'list.0.b.__proto__']);
    expect(protoKeyErrors(body)[0]?.message).toBe('is not allowed as a key');
  });

  it('finds nothing in ordinary bodies, including keys that merely look alike', () => {
    expect(protoKeyErrors({ env: { constructor: 'y', prototype: 'z', __proto: 'w' } })).toEqual([]);
    expect(protoKeyErrors(undefined)).toEqual([]);
    expect(protoKeyErrors('__proto__')).toEqual([]);
    expect(protoKeyErrors([1, null, { a: 2 }])).toEqual([]);
  });

  it('walks a body nested far deeper than the call stack would allow', () => {
    const deep = `${'{"a":'.repeat(100_000)}{"__proto__":1}${'}'.repeat(100_000)}`;
    const errors = protoKeyErrors(JSON.parse(deep));
    expect(errors).toHaveLength(1);
    expect(errors[0]?.path.endsWith('.a.__proto__')).toBe(true);
  });
});
