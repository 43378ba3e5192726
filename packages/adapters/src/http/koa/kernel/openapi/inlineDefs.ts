import type { JsonObject } from './OpenApiDocument.ts';

/** Where `z.toJSONSchema` points a schema it moved into the root's `$defs`. */
const DEFS_REF = '#/$defs/';

/**
 * `schema` with every `$ref` into `defs` replaced by the definition it points to, so the schema is
 * written out in full. `z.toJSONSchema` moves a schema with a component name (`.meta({ id })`) into
 * `$defs` wherever it appears; request bodies and parameters are written out in their operation
 * instead (each is used once, and the limits are read there). A recursive definition cannot be
 * written out: that throws.
 */
export function inlineDefs(schema: JsonObject, defs: Readonly<Record<string, JsonObject>>): JsonObject {
  const inline = (value: unknown, within: readonly string[]): unknown => {
    if (Array.isArray(value)) return value.map((item) => inline(item, within));
    if (typeof value !== 'object' || value === null) return value;
    const { $ref, ...rest } = value as JsonObject;
    const entries = Object.entries(rest).map(([key, item]) => [key, inline(item, within)] as const);
    if (typeof $ref !== 'string' || !$ref.startsWith(DEFS_REF)) {
      return Object.fromEntries($ref === undefined ? entries : [['$ref', $ref], ...entries]);
    }
    const name = $ref.slice(DEFS_REF.length);
    const definition = defs[name];
    if (!definition) throw new Error(`No definition ${name} for ${$ref}.`);
    if (within.includes(name)) throw new Error(`The schema ${name} is recursive: it cannot be written out.`);
    return { ...(inline(definition, [...within, name]) as JsonObject), ...Object.fromEntries(entries) };
  };
  return inline(schema, []) as JsonObject;
}
