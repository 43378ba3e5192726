import { type FieldError, ValidationError } from './DomainError.ts';
import { type TextKind, textProblem } from './textRules.ts';

/** Collects field errors and throws them together, so a client hears every problem at once. */
export class Checks {
  private readonly errors: FieldError[] = [];

  /** Records `message` at `path` unless `ok`. */
  require(ok: boolean, path: string, message: string): this {
    if (!ok) this.errors.push({ path, message });
    return this;
  }

  /** A string whose length (in UTF-16 code units, as JSON counts) lies within bounds. */
  length(value: string, path: string, min: number, max: number): this {
    return this.require(
      value.length >= min && value.length <= max,
      path,
      min === max ? `must be ${min} characters` : `must be ${min} to ${max} characters`,
    );
  }

  /** An integer from `min` to `max`. */
  integerIn(value: number, path: string, min: number, max: number): this {
    return this.require(
      Number.isInteger(value) && value >= min && value <= max,
      path,
      `must be an integer from ${min} to ${max}`,
    );
  }

  /** A string that keeps the character rule of `kind` (see `textRules.ts`). */
  text(value: string, path: string, kind: TextKind): this {
    const problem = textProblem(value, kind);
    return this.require(problem === undefined, path, problem ?? '');
  }

  /** Throws a `ValidationError` naming every recorded field, if any. */
  throwIfAny(): void {
    if (this.errors.length > 0) throw new ValidationError(this.errors);
  }
}

/** Byte length of a string encoded as UTF-8, without depending on any runtime API. */
export function utf8Length(value: string): number {
  let bytes = 0;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * UTF-8 byte length of `value` serialized as JSON; `Infinity` when it cannot be serialized (too
 * deeply nested for the stack, a cycle), so size limits refuse it instead of failing.
 */
export function jsonByteLength(value: unknown): number {
  try {
    return utf8Length(JSON.stringify(value) ?? '');
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

/** A plain JSON object (not an array, not null). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
