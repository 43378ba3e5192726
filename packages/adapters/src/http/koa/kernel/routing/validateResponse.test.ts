import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type AnyRoute, defineRoute } from './RouteDefinition.ts';
import { getThroughKernel } from './testing/getThroughKernel.ts';

const Thing = z.object({ id: z.string(), created_at: z.iso.datetime() });

/**
 * A presenter that drifted from its schema where the compiler cannot see it (its data comes through
 * `any`, as from a database row or another service): `id` is a number, `created_at` not a timestamp.
 */
function presentDrifted(): z.input<typeof Thing> {
  return JSON.parse('{"id":7,"created_at":"yesterday"}');
}

const routes: AnyRoute[] = [
  defineRoute({
    method: 'GET',
    path: '/things/good',
    operationId: 'goodThing',
    summary: 'Answers its contract',
    tag: 'Test',
    auth: 'none',
    responses: { 200: { description: 'A thing.', schema: Thing } },
    handle: async () => ({ status: 200, body: { id: 't1', created_at: '2026-01-01T00:00:00.000Z' } }),
  }),
  defineRoute({
    method: 'GET',
    path: '/things/drifted',
    operationId: 'driftedThing',
    summary: 'Answers a body its schema refuses',
    tag: 'Test',
    auth: 'none',
    responses: { 200: { description: 'A thing.', schema: Thing } },
    handle: async () => ({ status: 200, body: presentDrifted() }),
  }),
  defineRoute({
    method: 'GET',
    path: '/things/leaky',
    operationId: 'leakyThing',
    summary: 'Answers a field its schema does not declare',
    tag: 'Test',
    auth: 'none',
    responses: { 200: { description: 'A thing.', schema: Thing } },
    handle: async () => {
      // A whole record handed on: the types allow the extra field, the document does not show it.
      const row = { id: 't2', created_at: '2026-01-01T00:00:00.000Z', owner_secret: 's3cr3t' };
      return { status: 200, body: row };
    },
  }),
];

const get = (path: string, validateResponses: boolean) =>
  getThroughKernel(routes, path, { validateResponses });

describe('validateResponses', () => {
  it('passes an answer that matches its declared schema', async () => {
    const { status, body } = await get('/things/good', true);
    expect(status).toBe(200);
    expect(body).toEqual({ id: 't1', created_at: '2026-01-01T00:00:00.000Z' });
  });

  it('turns a drifting answer into a 500 problem naming the route and fields, and logs it', async () => {
    const { status, body, lines } = await get('/things/drifted', true);
    expect(status).toBe(500);
    expect(body).toMatchObject({ code: 'internal', status: 500 });
    expect(body.detail).toMatch(/driftedThing \(GET \/things\/drifted\) answered 200/);
    expect(body.detail).toMatch(/id: .*expected string/i);
    expect(body.detail).toMatch(/created_at: /);
    const logged = lines.find((line) => line.msg === 'unhandled error');
    expect((logged?.err as { type?: string } | undefined)?.type).toBe('ResponseContractError');
  });

  it('refuses a field the schema does not declare', async () => {
    const { status, body } = await get('/things/leaky', true);
    expect(status).toBe(500);
    expect(body.detail).toMatch(/leakyThing .* owner_secret: not in the schema/);
  });

  it('lets the same answer through when off (production)', async () => {
    const { status, body } = await get('/things/drifted', false);
    expect(status).toBe(200);
    expect(body).toEqual({ id: 7, created_at: 'yesterday' });
  });
});
