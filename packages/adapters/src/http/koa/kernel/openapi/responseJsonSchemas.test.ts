import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { responseJsonSchemas } from './responseJsonSchemas.ts';

const Item = z.object({ id: z.string().meta({ description: 'The id.' }) });
const Page = z.object({ items: z.array(Item), total: z.int() });

describe('responseJsonSchemas', () => {
  it('writes named schemas out once and refers to them, also from unnamed ones', () => {
    const Envelope = z.object({ item: Item });
    const schemas = responseJsonSchemas({ Item, Page }, [Item, Page, Envelope]);
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

  it('refuses an unnamed response schema that is also part of another one', () => {
    const Inner = z.object({ a: z.string() });
    const Outer = z.object({ inner: Inner });
    expect(() => responseJsonSchemas({}, [Inner, Outer])).toThrow(/name it in COMPONENT_SCHEMAS/);
  });

  it('refuses a schema it was not given', () => {
    expect(() => responseJsonSchemas({ Item }, []).of(Page)).toThrow(/not given/);
  });
});
