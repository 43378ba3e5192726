import type { FieldError } from '@browserdeck/domain';

/**
 * Every `__proto__` key in a parsed JSON body, as field errors. `JSON.parse` keeps such a key as an
 * own property, but zod's records drop it without a word and an assignment anywhere downstream would
 * replace an object's prototype instead of storing a value; so it is refused like any other invalid
 * field (http-api.md §1: nothing is silently ignored). The walk is iterative: a deeply nested body cannot
 * overflow the stack.
 */
export function protoKeyErrors(body: unknown): FieldError[] {
  const errors: FieldError[] = [];
  const pending: Array<{ value: unknown; path: string }> = [{ value: body, path: '' }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value, path } = next;
    if (typeof value !== 'object' || value === null) continue;
    for (const [key, child] of Object.entries(value)) {
      const childPath = path === '' ? key : `${path}.${key}`;
      if (key === '__proto__') errors.push({ path: childPath, message: 'is not allowed as a key' });
      else pending.push({ value: child, path: childPath });
    }
  }
  return errors;
}
