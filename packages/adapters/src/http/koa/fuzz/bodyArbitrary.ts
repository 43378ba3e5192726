import fc from 'fast-check';
import type { AnyRoute } from '../kernel/routing/RouteDefinition.ts';
import { type FieldHints, hostileValue, nearValidObject, schemaOf, validValue } from './schemaArbitraries.ts';

/** The body a fuzzed request sends. */
export type FuzzBody =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown }
  | { kind: 'raw'; contentType: string | null; text?: string; bytes?: number[]; deep?: DeepBody };

/** A body nested `depth` levels under `key`, built only when sent (it can be a megabyte). */
export interface DeepBody {
  key: string;
  depth: number;
  arrays: boolean;
}

/** The bytes of a raw body. */
export function rawPayload(body: Extract<FuzzBody, { kind: 'raw' }>): string | Uint8Array {
  if (body.bytes) return new Uint8Array(body.bytes);
  if (body.deep) {
    const { key, depth, arrays } = body.deep;
    return arrays
      ? `{"${key}":${'['.repeat(depth)}${']'.repeat(depth)}}`
      : `{"${key}":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`;
  }
  return body.text ?? '';
}

/** Raw bodies: broken JSON, wrong media types, invalid UTF-8, JSON that is not an object, huge depth. */
function rawBody(keys: string[]): fc.Arbitrary<FuzzBody> {
  const json = 'application/json';
  const raw = (text: string, contentType: string | null = json): FuzzBody => ({
    kind: 'raw',
    text,
    contentType,
  });
  return fc.oneof(
    fc.constantFrom(
      raw('{"name":'),
      raw('{"name": "x"}', 'text/plain'),
      raw('{"name": "x"}', null),
      raw('{"name": "x"}', 'application/json; charset=latin1'),
      raw('{"name": "x"}', 'application/x-www-form-urlencoded'),
      { kind: 'raw', bytes: [0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d], contentType: json },
      raw('null'),
      raw('[]'),
      raw('"a string"'),
      raw('1e999'),
      raw('{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}'),
      raw('{"name":"a","name":{"__proto__":{"polluted":1}}}'),
      raw('\ufeff{}'),
      raw('$HUGE_1048600$'),
    ),
    fc
      .tuple(
        fc.constantFrom(...(keys.length > 0 ? keys : ['x'])),
        fc.integer({ min: 1_000, max: 500_000 }),
        fc.boolean(),
      )
      .map(
        ([key, depth, arrays]): FuzzBody => ({
          kind: 'raw',
          contentType: json,
          deep: { key, depth: arrays ? depth : Math.floor(depth / 5), arrays },
        }),
      ),
  );
}

/** A body for the route: valid, near-valid, hostile or raw JSON per its body schema; none on GET. */
export function bodyArbitrary(route: AnyRoute, hints: FieldHints): fc.Arbitrary<FuzzBody> {
  const none = fc.constant<FuzzBody>({ kind: 'none' });
  const json = (value: fc.Arbitrary<unknown>) => value.map((v): FuzzBody => ({ kind: 'json', value: v }));
  if (route.method === 'GET') return none;
  if (!route.body) {
    return fc.oneof(
      { arbitrary: none, weight: 4 },
      { arbitrary: json(hostileValue), weight: 1 },
      { arbitrary: rawBody([]), weight: 1 },
    );
  }
  const schema = schemaOf(route.body);
  const keys = Object.keys(schema.properties ?? {});
  return fc.oneof(
    { arbitrary: json(validValue(schema, hints)), weight: 4 },
    { arbitrary: json(nearValidObject(schema, hints)), weight: 5 },
    { arbitrary: json(hostileValue), weight: 2 },
    { arbitrary: rawBody(keys), weight: 1 },
    { arbitrary: none, weight: 1 },
  );
}
