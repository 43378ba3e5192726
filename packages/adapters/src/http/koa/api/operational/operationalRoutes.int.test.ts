import {
  assertProblem,
  createTestApp,
  type TestApp,
  type TestAppOptions,
} from '@browserdeck/testing/adapters';
import type { Router } from '@koa/router';
import { afterEach, describe, expect, it } from 'vitest';
import type { OpenApiDocument } from '../../kernel/openapi/OpenApiDocument.ts';

let t: TestApp;
async function start(options?: TestAppOptions): Promise<TestApp> {
  t = await createTestApp(options);
  return t;
}
afterEach(() => t?.close());

/** The router's registered routes as `METHOD /openapi/{template}`, read from the app itself. */
function registeredRoutes(app: TestApp['app']): string[] {
  const routes = app.middleware.flatMap((mw) => {
    const router = (mw as { router?: Router }).router;
    return router ? router.stack : [];
  });
  expect(routes.length).toBeGreaterThan(0);
  // The Browserbase-compatible routes are Browserbase's API, documented by Browserbase (ADR 0011);
  // the live view's page and its files are HTML and static files behind a viewer token (§14).
  const undocumented = /^(browserbase|liveView(Page|Asset)$)/;
  return routes
    .filter((layer) => !undocumented.test(String(layer.name)))
    .flatMap((layer) =>
      layer.methods
        .filter((m) => m !== 'HEAD')
        .map((m) => {
          const template = String(layer.path)
            .replace(/(?<!\\):(\w+)/g, '{$1}')
            .replaceAll('\\:', ':');
          return `${m} ${template}`;
        }),
    );
}

describe('/healthz and /readyz', () => {
  it('answers /healthz 200 { status: "ok" } without a token', async () => {
    await start();
    const res = await t.request('/healthz');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('answers /readyz 200 when the database answers', async () => {
    let checks = 0;
    await start({ overrides: { database: { checkReadiness: async () => void checks++ } } });
    const res = await t.request('/readyz');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
    expect(checks).toBe(1);
  });

  it('answers /readyz 503 database_unavailable when the check throws, without leaking why', async () => {
    await start({
      overrides: {
        database: {
          checkReadiness: () => Promise.reject(new Error('connect ECONNREFUSED 10.0.0.5:5432 password=x')),
        },
      },
    });
    const problem = await assertProblem(await t.request('/readyz'), 503, 'database_unavailable');
    expect(problem.detail).not.toMatch(/ECONNREFUSED|5432|password/);
    expect(t.rawLogs.join('\n')).toContain('ECONNREFUSED');
  });
});

describe('/openapi.json', () => {
  async function document(): Promise<OpenApiDocument> {
    const res = await t.request('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    return (await res.json()) as OpenApiDocument;
  }

  it('documents exactly the routes the router serves', async () => {
    await start();
    const doc = await document();
    expect(doc.openapi).toBe('3.1.0');
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect(documented.sort()).toEqual(registeredRoutes(t.app).sort());
    for (const route of [
      'POST /v1/auth/signup',
      'POST /v1/auth/signin',
      'POST /v1/auth/refresh',
      'POST /v1/auth/signout',
      'GET /v1/auth/me',
      'POST /v1/auth/sync',
      'POST /v1/projects',
      'GET /v1/projects',
      'GET /v1/projects/{project_id}',
      'PATCH /v1/projects/{project_id}',
      'DELETE /v1/projects/{project_id}',
      'POST /v1/projects/{project_id}:archive',
      'POST /v1/{provider}/projects/{project_id}/sessions',
      'GET /v1/{provider}/projects/{project_id}/sessions',
      'GET /v1/{provider}/projects/{project_id}/sessions/dashboard/stats',
      'GET /v1/{provider}/projects/{project_id}/sessions/{session_id}',
      'POST /v1/{provider}/projects/{project_id}/sessions/{session_id}:release',
      'GET /v1/{provider}/projects/{project_id}/sessions/{session_id}/logs',
      'POST /v1/{provider}/projects/{project_id}/agents',
      'GET /v1/{provider}/projects/{project_id}/agents',
      'GET /v1/{provider}/projects/{project_id}/agents/{agent_id}',
      'PUT /v1/{provider}/projects/{project_id}/agents/{agent_id}',
      'DELETE /v1/{provider}/projects/{project_id}/agents/{agent_id}',
      'GET /healthz',
      'GET /readyz',
      'GET /openapi.json',
      'GET /docs',
    ]) {
      expect(documented).toContain(route);
    }
  });

  it('states the request schemas with the domain limits', async () => {
    await start();
    const doc = await document();
    const signUp = doc.paths['/v1/auth/signup']?.post;
    const body = signUp?.requestBody as {
      required: boolean;
      content: Record<string, { schema: Record<string, unknown> }>;
    };
    expect(body.required).toBe(true);
    expect(body.content['application/json']?.schema).toMatchObject({
      type: 'object',
      additionalProperties: false,
      required: ['email', 'password'],
      properties: {
        email: { maxLength: 254 },
        password: { minLength: 8, maxLength: 256 },
        metadata: { type: 'object' },
      },
    });
    const create = doc.paths['/v1/projects']?.post?.requestBody as typeof body;
    expect(create.content['application/json']?.schema).toMatchObject({
      properties: {
        name: { minLength: 1, maxLength: 100 },
        slug: { maxLength: 64, pattern: '^[a-z0-9]+(-[a-z0-9]+)*$' },
      },
    });
    expect(doc.paths['/v1/projects']?.get?.parameters).toEqual([
      expect.objectContaining({
        name: 'archived',
        in: 'query',
        required: false,
        schema: expect.objectContaining({ enum: ['true', 'false'] }),
      }),
    ]);
    expect(doc.paths['/v1/projects/{project_id}:archive']?.post?.parameters).toEqual([
      expect.objectContaining({
        name: 'project_id',
        in: 'path',
        required: true,
        schema: expect.objectContaining({ format: 'uuid' }),
      }),
    ]);
    expect(doc.paths['/v1/auth/signout']?.post?.requestBody).toMatchObject({ required: false });
  });

  it('documents responses, security and the problem schema', async () => {
    await start();
    const doc = await document();
    const create = doc.paths['/v1/projects']?.post;
    expect(create?.security).toEqual([{ bearerAuth: [] }]);
    expect(Object.keys(create?.responses ?? {})).toEqual(
      expect.arrayContaining(['201', '400', '401', '409', '413', '415', '500']),
    );
    expect(create?.responses['409']).toMatchObject({
      'x-error-codes': ['slug_taken', 'project_limit_reached'],
      content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
    });
    expect(doc.paths['/v1/auth/signin']?.post?.security).toEqual([]);
    expect(doc.paths['/v1/auth/signin']?.post?.responses['429']).toHaveProperty('headers.Retry-After');
    expect(doc.paths['/v1/projects/{project_id}']?.delete?.responses['204']).toEqual({
      description: 'Deleted; no body.',
    });
    expect(doc.components.schemas.Problem).toMatchObject({
      required: expect.arrayContaining(['type', 'title', 'status', 'detail', 'code', 'requestId']),
    });
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
  });
});

describe('/docs', () => {
  it('serves a self-contained HTML reference of every route and error code', async () => {
    await start();
    const res = await t.request('/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html).toMatch(/^<!doctype html>/);
    for (const path of ['/v1/auth/signup', '/v1/projects/{project_id}:archive', '/readyz'])
      expect(html).toContain(path);
    expect(html).toContain('id="error-validation_failed"');
    expect(html).not.toMatch(/<(script|link)[^>]+(src|href)="?https?:/i);
  });
});
