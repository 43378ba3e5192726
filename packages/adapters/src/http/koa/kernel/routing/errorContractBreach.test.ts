import { ConflictError, NotFoundError } from '@browserdeck/domain';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { documentedErrorCodes, EVERY_ROUTE_ERRORS } from './documentedErrorCodes.ts';
import { errorContractBreach } from './errorContractBreach.ts';
import { type AnyRoute, defineRoute, type HttpRoute } from './RouteDefinition.ts';
import { getThroughKernel } from './testing/getThroughKernel.ts';

const Params = z.object({ thing_id: z.string() });
const route = (operationId: string, fails: Error, errors?: AnyRoute['errors']) =>
  defineRoute({
    method: 'GET',
    path: `/things/${operationId}/{thing_id}`,
    operationId,
    summary: 'Fails',
    tag: 'Test',
    auth: 'none',
    params: Params,
    responses: { 200: { description: 'Never.' } },
    ...(errors ? { errors } : {}),
    handle: () => Promise.reject(fails),
  });

const documented: HttpRoute = route('documented', new NotFoundError('Thing'), ['not_found']);
const routes: AnyRoute[] = [
  documented,
  route('undocumented', new ConflictError('slug_taken', 'Taken.'), ['not_found']),
];

const get = (path: string, validateErrors: boolean) => getThroughKernel(routes, path, { validateErrors });

describe('error contract (validateErrors)', () => {
  it('answers a code the route documents as it is', async () => {
    const { status, body } = await get('/things/documented/t1', true);
    expect(status).toBe(404);
    expect(body).toMatchObject({ code: 'not_found' });
  });

  it('turns an undocumented code into a 500 naming the route and the code, and logs it', async () => {
    const { status, body, lines } = await get('/things/undocumented/t1', true);
    expect(status).toBe(500);
    expect(body).toMatchObject({ code: 'internal', status: 500 });
    expect(body.detail).toBe(
      'Error contract: undocumented (GET /things/undocumented/{thing_id}) answered slug_taken, ' +
        "a code it does not document: add it to the route's errors.",
    );
    expect(lines.find((line) => line.msg === 'error contract')).toMatchObject({ code: 'slug_taken' });
  });

  it('lets the same answer through when off (production)', async () => {
    const { status, body } = await get('/things/undocumented/t1', false);
    expect(status).toBe(409);
    expect(body).toMatchObject({ code: 'slug_taken' });
  });

  it('checks no request that no route took (404, 405)', async () => {
    const { status, body } = await get('/nowhere', true);
    expect(status).toBe(404);
    expect(body).toMatchObject({ code: 'not_found' });
  });
});

describe('documentedErrorCodes', () => {
  it('adds what the kernel answers on any route, and what input and auth imply', () => {
    expect(documentedErrorCodes(documented)).toEqual([
      'validation_failed',
      'not_found',
      ...EVERY_ROUTE_ERRORS,
    ]);
    const withBody = { ...documented, auth: 'user' as const, body: z.object({}) };
    expect(documentedErrorCodes(withBody)).toEqual(
      expect.arrayContaining([
        'malformed_json',
        'unsupported_media_type',
        'unauthorized',
        'forbidden_for_api_key',
      ]),
    );
  });

  it('finds no breach in a documented or kernel-wide code', () => {
    expect(errorContractBreach(documented, 'not_found')).toBeUndefined();
    expect(errorContractBreach(documented, 'request_timeout')).toBeUndefined();
    expect(errorContractBreach(documented, 'unauthorized')?.message).toMatch(/documented .* unauthorized/);
  });
});
