import { jsonTextProblem, type TextKind, textProblem } from '@browserdeck/domain';
import { z } from 'zod';

/**
 * A zod check for the domain's character rule of `kind` (http-api.md §10: names refuse control
 * characters, free text allows tab and line breaks, opaque values refuse NUL). Use it after `trim`.
 */
export function textRule(kind: TextKind) {
  return (ctx: z.core.ParsePayload<string>): void => {
    const problem = textProblem(ctx.value, kind);
    if (problem) ctx.issues.push({ code: 'custom', input: ctx.value, message: problem });
  };
}

/** A zod check that no key or string inside a JSON value holds NUL (the domain's `jsonTextProblem`). */
export function jsonTextRule(ctx: z.core.ParsePayload<unknown>): void {
  const problem = jsonTextProblem(ctx.value);
  if (problem) ctx.issues.push({ code: 'custom', input: ctx.value, message: problem });
}

/** A UUID in a path (any version; 8-4-4-4-12 hex), compared in lower case. */
export const uuidParam = z.guid({ message: 'must be a UUID' }).toLowerCase();

/** `/projects/{project_id}…` */
export const projectIdParams = z.object({ project_id: uuidParam });

/** A query boolean: exactly `true` or `false` (http-api.md §1). */
export const queryBoolean = z
  .enum(['true', 'false'], { message: 'must be true or false' })
  .transform((value) => value === 'true');

/** The largest query integer: 15 decimal digits, so every accepted value is exact as a number. */
export const QUERY_INTEGER_MAX = 999_999_999_999_999;

/**
 * A query integer from `min` to `max` (inclusive). Only plain decimal digits count as a number, so
 * `1.5`, `1e2`, `0x10` or an empty value are a 400, as is a repeated parameter; the message names
 * the range, also for a value longer than 15 digits.
 */
export function queryInteger(min: number, max = QUERY_INTEGER_MAX) {
  const range = `must be an integer from ${min} to ${max}`;
  return z.preprocess(
    (value) => (typeof value === 'string' && /^-?\d{1,15}$/.test(value) ? Number(value) : value),
    z.int(range).min(min, range).max(max, range),
  );
}

/** The body of an action with no input: nothing, or an empty JSON object. */
export const emptyBody = z.strictObject({}).optional();

/** An ISO 8601 UTC timestamp with milliseconds, as every response writes it. */
export const timestamp = z.iso.datetime({ precision: 3 });

/** What `/healthz` and `/readyz` answer when all is well. */
export const StatusSchema = z.object({ status: z.literal('ok') }).meta({ id: 'Status' });

/** `/v1/{provider}/projects/{project_id}…`; which `provider` values exist is the route's `pathValues`. */
export const providerProjectParams = z.object({
  provider: z.string().meta({
    description: 'The configured cloud-browser provider’s name, or the alias `cloudbrowser`.',
  }),
  project_id: uuidParam,
});
