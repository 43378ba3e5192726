import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { jsonSchemaOf } from './buildOpenApiDocument.ts';

const Tag = z.object({ label: z.string().max(20) }).meta({ id: 'JsonSchemaOfTag', description: 'A tag.' });
const written = {
  type: 'object',
  properties: { label: { type: 'string', maxLength: 20 } },
  required: ['label'],
  description: 'A tag.',
};

describe('jsonSchemaOf', () => {
  it('writes a named schema out in full where a request schema holds it, with no $defs', () => {
    const Body = z.object({ tags: z.array(Tag), main: Tag.optional() });
    const json = jsonSchemaOf(Body);
    expect(json).not.toHaveProperty('$defs');
    expect(JSON.stringify(json)).not.toContain('$ref');
    expect(json).toMatchObject({
      properties: { tags: { type: 'array', items: written }, main: written },
      required: ['tags'],
    });
  });

  it('writes out a named schema given alone', () => {
    expect(jsonSchemaOf(Tag)).toEqual(written);
  });

  it('refuses a recursive named schema, which cannot be written out', () => {
    const Node: z.ZodType = z
      .object({ children: z.array(z.lazy(() => Node)) })
      .meta({ id: 'JsonSchemaOfNode' });
    expect(() => jsonSchemaOf(z.object({ root: Node }))).toThrow(/recursive/);
  });
});
