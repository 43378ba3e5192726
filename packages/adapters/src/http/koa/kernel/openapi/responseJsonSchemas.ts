import { z } from 'zod';
import type { JsonObject } from './OpenApiDocument.ts';

/** The `$ref` of a named schema in `components/schemas`. */
export function schemaRef(name: string): JsonObject {
  return { $ref: `#/components/schemas/${name}` };
}

/** What `responseJsonSchemas` converted. */
export interface ResponseJsonSchemas {
  /** Every named schema, written out, referring to the others by `$ref`. */
  components: Record<string, JsonObject>;
  /** What the document shows for `schema` (one given to `responseJsonSchemas`): a `$ref` when named. */
  of(schema: z.ZodType): JsonObject;
}

/** The id prefix of response schemas that are not named: written out, never referred to. */
const UNNAMED = '~unnamed';

/**
 * Converts the named schemas and the response schemas `used` in one pass of `z.toJSONSchema` over a
 * registry, so that a named schema is a `$ref` wherever it appears, also inside an unnamed response
 * schema. Like `jsonSchemaOf`, it converts the `input` side (objects stay open to fields added later).
 */
export function responseJsonSchemas(
  named: Readonly<Record<string, z.ZodType>>,
  used: readonly z.ZodType[],
): ResponseJsonSchemas {
  const registry = z.registry<{ id: string }>();
  const names = new Map<z.ZodType, string>();
  for (const [name, schema] of Object.entries(named)) {
    registry.add(schema, { id: name });
    names.set(schema, name);
  }
  const unnamed = new Map<z.ZodType, string>();
  for (const schema of used) {
    if (names.has(schema) || unnamed.has(schema)) continue;
    const id = `${UNNAMED}${unnamed.size}`;
    registry.add(schema, { id });
    unnamed.set(schema, id);
  }
  const { schemas } = z.toJSONSchema(registry, {
    io: 'input',
    unrepresentable: 'any',
    uri: (id) => schemaRef(id).$ref as string,
  });
  if ('__shared' in schemas) throw new Error('A response schema is recursive; name it in COMPONENT_SCHEMAS.');
  const bodies = new Map<string, JsonObject>();
  for (const [id, converted] of Object.entries(schemas)) {
    const { $schema: _schema, $id: _id, ...body } = converted as JsonObject;
    bodies.set(id, body);
  }
  if (JSON.stringify([...bodies.values()]).includes(schemaRef(UNNAMED).$ref as string)) {
    throw new Error('A response schema is also part of another one; name it in COMPONENT_SCHEMAS.');
  }
  return {
    components: Object.fromEntries(Object.keys(named).map((name) => [name, bodies.get(name) ?? {}])),
    of(schema) {
      const name = names.get(schema);
      if (name) return schemaRef(name);
      const body = bodies.get(unnamed.get(schema) ?? '');
      if (!body) throw new Error('responseJsonSchemas was not given this schema.');
      return body;
    },
  };
}
