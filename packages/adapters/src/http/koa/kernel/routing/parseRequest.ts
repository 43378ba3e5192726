import { type FieldError, ValidationError } from '@browserdeck/domain';
import type { z } from 'zod';
import { protoKeyErrors } from './protoKeyErrors.ts';
import { toFieldErrors } from './toFieldErrors.ts';

/** The raw parts of a request that routes validate. */
export interface RawRequestInput {
  params: unknown;
  query: unknown;
  body: unknown;
  headers: unknown;
}

/** The schemas a route validates its input with. */
export interface RequestSchemas {
  params?: z.ZodType | undefined;
  query?: z.ZodType | undefined;
  body?: z.ZodType | undefined;
  headers?: z.ZodType | undefined;
}

/**
 * Validates path parameters, query, body and headers against the route's schemas at once and throws one
 * `validation_failed` listing every failing field. A part without a schema comes out `undefined`.
 * A `__proto__` key anywhere in the body is one of those fields (see `protoKeyErrors`).
 */
export function parseRequest(schemas: RequestSchemas, raw: RawRequestInput): RawRequestInput {
  const errors: FieldError[] = [];
  const parse = (schema: z.ZodType | undefined, value: unknown, refused: FieldError[] = []): unknown => {
    if (!schema) return undefined;
    errors.push(...refused);
    const result = schema.safeParse(value);
    if (result.success && refused.length === 0) return result.data;
    // A top-level `__proto__` is also zod's unknown field: name it once.
    const named = new Set(refused.map((e) => e.path));
    if (!result.success) errors.push(...toFieldErrors(result.error.issues).filter((e) => !named.has(e.path)));
    return undefined;
  };
  const parsed = {
    params: parse(schemas.params, raw.params),
    query: parse(schemas.query, raw.query),
    body: parse(schemas.body, raw.body, protoKeyErrors(raw.body)),
    headers: parse(schemas.headers, raw.headers),
  };
  if (errors.length > 0) {
    const detail = errors.map((e) => (e.path ? `${e.path}: ${e.message}` : e.message)).join('; ');
    throw new ValidationError(errors, `The request is not valid: ${detail}.`);
  }
  return parsed;
}
