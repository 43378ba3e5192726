import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { assertProblem, createTestApp, type TestApp } from '@browserdeck/testing/adapters';
import Koa from 'koa';
import mount from 'koa-mount';
import { afterEach, describe, expect, it } from 'vitest';
import type { ProblemBody } from './errors/writeProblem.ts';
import type { OpenApiDocument } from './openapi/OpenApiDocument.ts';

let t: TestApp | undefined;
let host: Server | undefined;
afterEach(async () => {
  host?.closeAllConnections();
  host?.close();
  host = undefined;
  await t?.close();
  t = undefined;
});

/** A host app of its own (it answers `/`), with the Browserdeck app mounted the ordinary Koa way. */
async function mountedAt(...prefixes: string[]): Promise<string> {
  t = await createTestApp();
  const mounted = prefixes.reduceRight<Koa.Middleware>((inner, prefix) => mount(prefix, inner), mount(t.app));
  const app = new Koa();
  app.use(mounted);
  app.use((ctx) => {
    ctx.body = 'host';
  });
  host = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => host?.once('listening', resolve));
  return `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
}

describe('links under a mount prefix', () => {
  it('/docs links the document under the prefix', async () => {
    const base = await mountedAt('/browserdeck');
    const res = await fetch(`${base}/browserdeck/docs`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<a href="/browserdeck/openapi.json">');
    expect(html).not.toContain('href="/openapi.json"');
    expect(await (await fetch(`${base}/`)).text()).toBe('host');
  });

  it('/openapi.json names the prefix as its server; paths stay relative to it', async () => {
    const base = await mountedAt('/browserdeck');
    const res = await fetch(`${base}/browserdeck/openapi.json`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as OpenApiDocument;
    expect(doc.servers).toEqual([{ url: '/browserdeck', description: expect.any(String) }]);
    expect(Object.keys(doc.paths)).toContain('/v1/projects');
    expect(Object.keys(doc.paths).some((path) => path.startsWith('/browserdeck'))).toBe(false);
  });

  it('problem types link /docs under the prefix, for routing, validation and auth errors', async () => {
    const base = await mountedAt('/browserdeck');
    const notFound = await fetch(`${base}/browserdeck/v1/nothing-here`);
    expect(notFound.status).toBe(404);
    expect(((await notFound.json()) as ProblemBody).type).toBe('/browserdeck/docs#error-not_found');
    const invalid = await fetch(`${base}/browserdeck/v1/auth/signup`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'not an address', password: 'long enough' }),
    });
    expect(invalid.status).toBe(400);
    expect(((await invalid.json()) as ProblemBody).type).toBe('/browserdeck/docs#error-validation_failed');
    const unauthorized = await fetch(`${base}/browserdeck/v1/projects?x=/y`);
    expect(unauthorized.status).toBe(401);
    expect(((await unauthorized.json()) as ProblemBody).type).toBe('/browserdeck/docs#error-unauthorized');
  });

  it('serves the API itself under the prefix', async () => {
    const base = await mountedAt('/browserdeck');
    const user = await t!.signUpAndIn('mounted@example.com');
    const res = await fetch(`${base}/browserdeck/v1/projects`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${user.accessToken}` },
      body: JSON.stringify({ name: 'Mounted' }),
    });
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    expect((await t!.projects.findAccess(id, user.id))?.project?.name).toBe('Mounted');
  });

  it('follows nested mounts, and the mount point itself', async () => {
    const base = await mountedAt('/outer', '/inner');
    const doc = (await (await fetch(`${base}/outer/inner/openapi.json`)).json()) as OpenApiDocument;
    expect(doc.servers[0]?.url).toBe('/outer/inner');
    const root = await fetch(`${base}/outer/inner`);
    expect(root.status).toBe(404);
    expect(((await root.json()) as ProblemBody).type).toBe('/outer/inner/docs#error-not_found');
  });

  it('leaves the unmounted app as it was', async () => {
    t = await createTestApp();
    const html = await (await t.request('/docs')).text();
    expect(html).toContain('<a href="/openapi.json">');
    const doc = (await (await t.request('/openapi.json')).json()) as OpenApiDocument;
    expect(doc.servers[0]?.url).toBe('/');
    const problem = await assertProblem(await t.request('/v1/nothing-here'), 404, 'not_found');
    expect(problem.type).toBe('/docs#error-not_found');
  });
});
