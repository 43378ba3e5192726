import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { httpState } from '../../HttpState.ts';
import { isAnsweredError } from '../errors/toDomainError.ts';
import { buildRouter } from '../routing/buildRouter.ts';
import { type AnyRoute, defineRoute, type HttpMethod } from '../routing/RouteDefinition.ts';
import { resolveRoute } from './resolveRoute.ts';

const Params = z.record(z.string(), z.string());

/** A route that answers which operation served it, with its path parameters. */
function echo(
  method: HttpMethod,
  path: string,
  operationId: string,
  extra: Pick<AnyRoute, 'pathValues'> = {},
): AnyRoute {
  return defineRoute({
    method,
    path,
    operationId,
    summary: operationId,
    tag: 'Test',
    auth: 'none',
    params: Params,
    responses: { 200: { description: 'Echo.' } },
    handle: async ({ params }) => ({ status: 200, body: { operationId, params } }),
    ...extra,
  });
}

const routes = [
  echo('GET', '/items/{item_id}', 'getItem'),
  echo('DELETE', '/items/{item_id}', 'deleteItem'),
  echo('POST', '/items/{item_id}:archive', 'archiveItem'),
  echo('GET', '/items/{item_id}/parts/stats', 'partStats'),
  echo('GET', '/items/{item_id}/parts/{part_id}', 'getPart'),
  echo('GET', '/v1/{provider}/things', 'listThings', { pathValues: { provider: ['local', 'cloudbrowser'] } }),
];

let server: Server;
let base: string;
beforeAll(async () => {
  const app = new Koa();
  app.use(async (ctx, next) => {
    ctx.state.requestId = 'test';
    try {
      await next();
    } catch (error) {
      if (!isAnsweredError(error)) throw error;
      ctx.status = error.code === 'not_found' ? 404 : 405;
      ctx.body = { code: error.code };
    }
    if (ctx.status === 200) ctx.set('X-Route', httpState(ctx).routePath ?? '');
  });
  const authenticate = { execute: () => Promise.reject(new Error('no auth in this test')) };
  app.use(resolveRoute(buildRouter(routes, { authenticate }), routes));
  server = createServer(app.callback()).listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

async function call(method: string, path: string) {
  const res = await fetch(`${base}${path}`, { method });
  const text = await res.text();
  return {
    status: res.status,
    allow: res.headers.get('allow'),
    route: res.headers.get('x-route'),
    body: text ? (JSON.parse(text) as Record<string, unknown>) : undefined,
  };
}

describe('resolveRoute', () => {
  it('runs the matching route with its decoded parameters and records its router path', async () => {
    expect(await call('GET', '/items/a%20b')).toMatchObject({
      status: 200,
      route: '/items/:item_id',
      body: { operationId: 'getItem', params: { item_id: 'a b' } },
    });
    expect(await call('POST', '/items/x:archive')).toMatchObject({
      route: '/items/:item_id\\:archive',
      body: { operationId: 'archiveItem', params: { item_id: 'x' } },
    });
  });

  it('matches as @koa/router does: case-insensitively, with an optional trailing slash', async () => {
    expect(await call('GET', '/ITEMS/x/')).toMatchObject({ status: 200, body: { operationId: 'getItem' } });
  });

  it('prefers the route registered first when two match', async () => {
    expect(await call('GET', '/items/x/parts/stats')).toMatchObject({ body: { operationId: 'partStats' } });
    expect(await call('GET', '/items/x/parts/p1')).toMatchObject({
      body: { operationId: 'getPart', params: { item_id: 'x', part_id: 'p1' } },
    });
  });

  it('never puts a literal colon in a parameter, though an escaped one passes decoded', async () => {
    expect(await call('GET', '/items/x:archive')).toMatchObject({ status: 405, allow: 'POST' });
    expect(await call('POST', '/items/x:explode')).toMatchObject({
      status: 404,
      body: { code: 'not_found' },
    });
    expect(await call('GET', '/items/x%3Aexplode')).toMatchObject({
      body: { operationId: 'getItem', params: { item_id: 'x:explode' } },
    });
  });

  it('answers 405 with Allow in a fixed order, and OPTIONS 204 with it', async () => {
    expect(await call('PUT', '/items/x')).toMatchObject({ status: 405, allow: 'GET, HEAD, DELETE' });
    expect(await call('OPTIONS', '/items/x')).toMatchObject({ status: 204, allow: 'GET, HEAD, DELETE' });
    expect(await call('HEAD', '/items/x')).toMatchObject({ status: 200 });
  });

  it('matches a fixed-value parameter only with one of its values, in any case or escaped', async () => {
    for (const provider of ['local', 'CloudBrowser', '%6Cocal'])
      expect(await call('GET', `/v1/${provider}/things`)).toMatchObject({ status: 200 });
    expect(await call('GET', '/v1/browserbase/things')).toMatchObject({ status: 404 });
    expect(await call('POST', '/v1/browserbase/things')).toMatchObject({ status: 404 });
    expect(await call('POST', '/v1/local/things')).toMatchObject({ status: 405, allow: 'GET, HEAD' });
  });
});
