import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { componentNameOf, responseJsonSchemas } from './responseJsonSchemas.ts';

const Item = z.object({ id: z.string().meta({ description: 'The id.' }) }).meta({ id: 'Item' });
const Page = z.object({ items: z.array(Item), total: z.int() }).meta({ id: 'Page' });

describe('responseJsonSchemas', () => {
  it('writes named schemas out once and refers to them, also from unnamed ones', () => {
    const Envelope = z.object({ item: Item });
    const schemas = responseJsonSchemas([Item, Page, Envelope]);
    expect(schemas.components).toEqual({
      Item: {
        type: 'object',
        properties: { id: { type: 'string', description: 'The id.' } },
        required: ['id'],
      },
      Page: {
        type: 'object',
        properties: {
          items: { type: 'array', items: { $ref: '#/components/schemas/Item' } },
          total: expect.any(Object),
        },
        required: ['items', 'total'],
      },
    });
    expect(schemas.of(Page)).toEqual({ $ref: '#/components/schemas/Page' });
    expect(schemas.of(Envelope)).toEqual({
      type: 'object',
      properties: { item: { $ref: '#/components/schemas/Item' } },
      required: ['item'],
    });
  });

  it('names the schemas a response reaches only from inside, however deep', () => {
    const Wrapper = z.object({ page: Page.nullable() });
    const schemas = responseJsonSchemas([Wrapper]);
    expect(Object.keys(schemas.components).sort()).toEqual(['Item', 'Page']);
    expect(schemas.of(Wrapper)).toMatchObject({
      properties: { page: { anyOf: [{ $ref: '#/components/schemas/Page' }, { type: 'null' }] } },
    });
  });

  it('takes a schema’s name from its metadata, and only from its own', () => {
    expect(componentNameOf(Item)).toBe('Item');
    expect(componentNameOf(Item.optional())).toBeUndefined();
    expect(componentNameOf(z.object({}).meta({ description: 'not a name' }))).toBeUndefined();
  });

  it('refuses two different schemas under one name', () => {
    const Other = z.object({ other: z.string() }).meta({ id: 'Item' });
    expect(() => responseJsonSchemas([Item, Other])).toThrow(/Two different schemas are named Item/);
  });

  it('refuses an unnamed response schema that is also part of another one', () => {
    const Inner = z.object({ a: z.string() });
    const Outer = z.object({ inner: Inner });
    expect(() => responseJsonSchemas([Inner, Outer])).toThrow(/give it a component name/);
  });

  it('refuses a schema it was not given', () => {
    expect(() => responseJsonSchemas([Item]).of(Page)).toThrow(/not given/);
  });
});
