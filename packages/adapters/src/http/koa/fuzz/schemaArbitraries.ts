import fc from 'fast-check';
import type { z } from 'zod';
import { jsonSchemaOf } from '../kernel/openapi/buildOpenApiDocument.ts';

/** A JSON Schema node as `z.toJSONSchema` writes it (only the keywords the route schemas use). */
export interface JsonSchema {
  type?: string;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  propertyNames?: JsonSchema;
  additionalProperties?: boolean | JsonSchema;
}

/**
 * Known-good values for fields whose schema is a free string but whose use case checks a closed set
 * (e.g. `region`), or that name fixture resources (`agentId`). Placeholders like `$AGENT_ID$` are
 * replaced with the fixture's current ids when the request is sent.
 */
export type FieldHints = Readonly<Record<string, readonly string[]>>;

/** The JSON Schema of a route's zod schema, the same conversion the OpenAPI document uses. */
export function schemaOf(schema: z.ZodType): JsonSchema {
  return jsonSchemaOf(schema) as JsonSchema;
}

/** Builds an object from entries, so `__proto__` becomes an own key and never a prototype. */
export function objectFrom(entries: ReadonlyArray<readonly [string, unknown]>): Record<string, unknown> {
  return Object.fromEntries(entries);
}

const PROTO_KEYS = ['__proto__', 'constructor', 'prototype'] as const;

/** Keys an attacker uses against prototype-walking code. */
export const protoKey = fc.constantFrom(...PROTO_KEYS);

/** `{ "__proto__": { "polluted": true } }` and friends, nested a little. */
export const pollutingObject: fc.Arbitrary<unknown> = fc
  .tuple(protoKey, fc.constantFrom('polluted', 'isAdmin', 'toString', 'hasOwnProperty'))
  .map(([key, leaf]) =>
    objectFrom([
      [
        key,
        objectFrom([
          [leaf, true],
          ['prototype', objectFrom([[leaf, 'yes']])],
        ]),
      ],
      ['constructor', objectFrom([['prototype', objectFrom([[leaf, 1]])]])],
    ]),
  );

/** Arrays or objects nested `depth` levels deep. */
export const deeplyNested: fc.Arbitrary<unknown> = fc
  .tuple(fc.integer({ min: 20, max: 2_000 }), fc.boolean())
  .map(([depth, arrays]) => {
    let value: unknown = 1;
    for (let i = 0; i < depth; i++) value = arrays ? [value] : objectFrom([['a', value]]);
    return value;
  });

/**
 * Strings that break naive code: huge (`$HUGE_<n>$`, expanded to n characters when sent, so that
 * counterexamples stay readable), control characters, lone surrogates, RTL, emoji, SQL, paths. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    '\ud800',
    '\udfff\ud800',
    '\u202e\u0041',
    '👩‍👩‍👧‍👦'.repeat(60),
    "'; DROP TABLE sessions; --",
    '../../etc/passwd',
    '%00',
    '$' + '{7*7}',
    '{{constructor.constructor("return process")()}}',
    '__proto__',
    'constructor',
    'prototype',
    'null',
    'undefined',
    'NaN',
    '1e309',
    '-0',
    '0x10',
    'true',
  ),
  fc.constantFrom(300, 2_001, 70_000, 300_000).map((n) => `$HUGE_${n}$`),
  fc.integer({ min: -1e9, max: 1e9 }).map(String),
);

/** Any kind of wrong value: wrong types, numbers as strings, arrays for objects, pollution, depth. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  fc.constantFrom(Number.MAX_SAFE_INTEGER + 2, -1, 0, 1.5, 1e308),
  hostileString,
  fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 4 }),
  fc.jsonValue({ maxDepth: 3 }),
  pollutingObject,
  deeplyNested,
);

/** A value the JSON Schema accepts (string lengths kept short; hints widen free strings). */
export function validValue(schema: JsonSchema, hints: FieldHints = {}, field = ''): fc.Arbitrary<unknown> {
  const hinted = hints[field];
  if (schema.anyOf) return fc.oneof(...schema.anyOf.map((s) => validValue(s, hints, field)));
  if (schema.enum) return fc.constantFrom(...schema.enum);
  switch (schema.type) {
    case 'string': {
      const min = schema.minLength ?? 0;
      const max = Math.min(schema.maxLength ?? 40, Math.max(min, 40));
      // A pattern bounds its strings itself: only a declared maxLength caps them (a token of 47
      // characters must not be filtered to never).
      const patternMax = schema.maxLength ?? Number.POSITIVE_INFINITY;
      const free = schema.pattern
        ? fc
            .stringMatching(new RegExp(schema.pattern))
            .filter((s) => s.length >= min && s.length <= patternMax)
        : fc.string({ minLength: min, maxLength: max, unit: 'grapheme' });
      return hinted ? fc.oneof({ arbitrary: fc.constantFrom(...hinted), weight: 3 }, free) : free;
    }
    case 'integer':
      return fc.integer({
        min: Math.max(schema.minimum ?? -1e6, -(2 ** 31)),
        max: Math.min(schema.maximum ?? 1e6, 2 ** 31),
      });
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'object':
      return validObject(schema, hints);
    case 'array':
      return fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 });
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function validObject(schema: JsonSchema, hints: FieldHints): fc.Arbitrary<Record<string, unknown>> {
  const properties = Object.entries(schema.properties ?? {});
  if (properties.length > 0) {
    const required = new Set(schema.required ?? []);
    return fc
      .tuple(
        ...properties.map(([key, prop]) =>
          required.has(key)
            ? validValue(prop, hints, key).map((v) => [key, v] as const)
            : fc.option(
                validValue(prop, hints, key).map((v) => [key, v] as const),
                { nil: undefined },
              ),
        ),
      )
      .map((entries) => objectFrom(entries.filter((e) => e !== undefined)));
  }
  const extra = schema.additionalProperties;
  if (extra === false) return fc.constant({});
  const key = schema.propertyNames
    ? validValue(schema.propertyNames).map(String)
    : fc.string({ maxLength: 10 });
  const value = typeof extra === 'object' ? validValue(extra, hints) : fc.jsonValue({ maxDepth: 2 });
  return fc
    .uniqueArray(fc.tuple(key, value), { maxLength: 5, selector: ([k]) => k })
    .map((entries) => objectFrom(entries));
}

/** Values just outside the schema: one past a length or range, the right value in the wrong type. */
export function boundaryValue(schema: JsonSchema): fc.Arbitrary<unknown> {
  const candidates: unknown[] = [null, [], {}, true, 'true', '1'];
  if (schema.maxLength !== undefined) candidates.push('y'.repeat(schema.maxLength + 1));
  if (schema.minLength !== undefined && schema.minLength > 0)
    candidates.push('y'.repeat(schema.minLength - 1));
  if (schema.minLength !== undefined) candidates.push(' '.repeat(Math.max(1, schema.minLength)));
  if (schema.minimum !== undefined)
    candidates.push(schema.minimum - 1, String(schema.minimum), schema.minimum + 0.5);
  if (schema.maximum !== undefined) candidates.push(schema.maximum + 1, String(schema.maximum));
  if (schema.enum) candidates.push(...schema.enum.map((v) => String(v).toLowerCase()), [schema.enum[0]]);
  if (schema.type === 'object')
    candidates.push(objectFrom([['not valid key!', 'v']]), objectFrom([['A', 1]]));
  return fc.constantFrom(...candidates);
}

/**
 * Near-valid objects: a valid one with one field set to a boundary or hostile value, one field
 * dropped, or an unknown (possibly prototype-polluting) field added.
 */
export function nearValidObject(schema: JsonSchema, hints: FieldHints): fc.Arbitrary<unknown> {
  const keys = Object.keys(schema.properties ?? {});
  const mutation = fc.oneof(
    ...(keys.length > 0
      ? [
          fc
            .constantFrom(...keys)
            .chain((key) =>
              fc
                .oneof(boundaryValue(schema.properties![key]!), hostileValue)
                .map((value) => ({ op: 'set' as const, key, value })),
            ),
          fc.constantFrom(...keys).map((key) => ({ op: 'drop' as const, key, value: undefined })),
        ]
      : []),
    fc
      .tuple(
        fc.oneof(protoKey, fc.constantFrom('timeout', 'Name', 'id', 'ownerId'), fc.string()),
        hostileValue,
      )
      .map(([key, value]) => ({ op: 'set' as const, key, value })),
  );
  return fc
    .tuple(validObject(schema, hints), fc.array(mutation, { minLength: 1, maxLength: 3 }))
    .map(([valid, mutations]) => {
      const entries = new Map(Object.entries(valid));
      for (const m of mutations) {
        if (m.op === 'drop') entries.delete(m.key);
        else entries.set(m.key, m.value);
      }
      return objectFrom([...entries]);
    });
}
