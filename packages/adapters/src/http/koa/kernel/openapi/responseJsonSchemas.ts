import { z } from 'zod';
import type { JsonObject } from './OpenApiDocument.ts';

/** The `$ref` of a named schema in `components/schemas`. */
export function schemaRef(name: string): JsonObject {
  return { $ref: `#/components/schemas/${name}` };
}

/** What `responseJsonSchemas` converted. */
export interface ResponseJsonSchemas {
  /** Every named schema the response schemas reach, written out, referring to the others by `$ref`. */
  components: Record<string, JsonObject>;
  /** What the document shows for `schema` (one given to `responseJsonSchemas`): a `$ref` when named. */
  of(schema: z.ZodType): JsonObject;
}

/** The id prefix of response schemas that are not named: written out, never referred to. */
const UNNAMED = '~unnamed';

/** How to name a schema: zod metadata, which the OpenAPI document uses as its component name. */
const HOW_TO_NAME = 'give it a component name with `.meta({ id })`';

/**
 * The component name of `schema`: the `id` of its zod metadata (`.meta({ id: 'Session' })`), which
 * the feature that owns the schema declares. The kernel knows no names of its own but `Problem`.
 */
export function componentNameOf(schema: z.ZodType): string | undefined {
  const id = z.globalRegistry.get(schema)?.id;
  return typeof id === 'string' ? id : undefined;
}

/**
 * Converts the response schemas `used` in one pass of `z.toJSONSchema` over a registry, together
 * with every named schema they reach (those with a component name, `componentNameOf`), so that a
 * named schema is a `$ref` wherever it appears, also inside an unnamed response schema. Like
 * `jsonSchemaOf`, it converts the `input` side (objects stay open to fields added later).
 */
export function responseJsonSchemas(used: readonly z.ZodType[]): ResponseJsonSchemas {
  const named = namedSchemasIn(used);
  const registry = z.registry<{ id: string }>();
  const names = new Map<z.ZodType, string>();
  for (const [name, schema] of named) {
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
  if ('__shared' in schemas) throw new Error(`A response schema is recursive; ${HOW_TO_NAME}.`);
  const bodies = new Map<string, JsonObject>();
  for (const [id, converted] of Object.entries(schemas)) {
    const { $schema: _schema, $id: _id, ...body } = converted as JsonObject;
    bodies.set(id, body);
  }
  if (JSON.stringify([...bodies.values()]).includes(schemaRef(UNNAMED).$ref as string)) {
    throw new Error(`A response schema is also part of another one; ${HOW_TO_NAME}.`);
  }
  return {
    components: Object.fromEntries([...named.keys()].map((name) => [name, bodies.get(name) ?? {}])),
    of(schema) {
      const name = names.get(schema);
      if (name) return schemaRef(name);
      const body = bodies.get(unnamed.get(schema) ?? '');
      if (!body) throw new Error('responseJsonSchemas was not given this schema.');
      return body;
    },
  };
}

/**
 * The named schemas among `schemas` and everything inside them, by name. zod's converter visits
 * every schema a schema is made of; its `override` hook sees each one, so nothing here walks zod's
 * internals. Two schemas under one name would be two different components: that throws.
 */
function namedSchemasIn(schemas: readonly z.ZodType[]): Map<string, z.ZodType> {
  const named = new Map<string, z.ZodType>();
  const visit = (schema: z.core.$ZodType) => {
    const name = componentNameOf(schema as z.ZodType);
    if (name === undefined) return;
    const known = named.get(name);
    if (known && known !== schema) throw new Error(`Two different schemas are named ${name}.`);
    named.set(name, schema as z.ZodType);
  };
  for (const schema of schemas) {
    z.toJSONSchema(schema, {
      io: 'input',
      unrepresentable: 'any',
      override: ({ zodSchema }) => visit(zodSchema),
    });
  }
  return named;
}
