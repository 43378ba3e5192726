import { request } from 'node:http';
import { createTestApp, type TestApp, type TestAppOptions } from '@browserdeck/testing/adapters';
import { afterEach, describe, expect, it } from 'vitest';
import type { JsonObject, OpenApiDocument } from './OpenApiDocument.ts';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function document(options?: TestAppOptions): Promise<OpenApiDocument> {
  t = await createTestApp(options);
  const res = await t.request('/openapi.json');
  expect(res.status).toBe(200);
  return (await res.json()) as OpenApiDocument;
}

/** The schema of an operation's response `status`, as the document writes it. */
function responseSchema(doc: OpenApiDocument, path: string, method: string, status: string): unknown {
  const response = doc.paths[path]?.[method]?.responses[status] as
    | { content: Record<string, { schema: unknown }> }
    | undefined;
  return Object.values(response?.content ?? {})[0]?.schema;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

describe('named schemas', () => {
  it('refers to the resources by name wherever they are answered', async () => {
    const doc = await document();
    const sessions = '/v1/{provider}/projects/{project_id}/sessions';
    expect(responseSchema(doc, '/v1/projects', 'post', '201')).toEqual(ref('Project'));
    expect(responseSchema(doc, '/v1/projects', 'get', '200')).toEqual({
      type: 'array',
      items: ref('ProjectListItem'),
    });
    expect(responseSchema(doc, '/v1/auth/signin', 'post', '200')).toEqual(ref('TokenGrant'));
    expect(responseSchema(doc, sessions, 'post', '201')).toEqual(ref('Session'));
    expect(responseSchema(doc, sessions, 'get', '200')).toEqual(ref('SessionPage'));
    expect(responseSchema(doc, '/healthz', 'get', '200')).toEqual(ref('Status'));
    expect(responseSchema(doc, '/v1/projects', 'post', '409')).toEqual(ref('Problem'));
    expect(doc.components.schemas.SessionPage).toMatchObject({
      properties: { sessions: { type: 'array', items: ref('Session') } },
    });
    expect(doc.components.schemas.Problem).toMatchObject({
      properties: { errors: { type: 'array', items: ref('FieldError') } },
    });
    expect(doc.components.schemas.Session).toMatchObject({
      type: 'object',
      required: expect.arrayContaining(['id', 'status', 'connectUrl', 'endedAt']),
    });
  });

  it('writes each resource out once, in components, and leaves out names nothing refers to', async () => {
    const doc = await document();
    const paths = JSON.stringify(doc.paths);
    for (const field of ['"providerSessionId"', '"access_token"', '"requestId"', '"byStatus"'])
      expect(paths.includes(field), field).toBe(false);
    const refs = new Set(JSON.stringify(doc).match(/#\/components\/schemas\/\w+/g));
    expect([...refs].sort()).toEqual(
      Object.keys(doc.components.schemas)
        .map((n) => `#/components/schemas/${n}`)
        .sort(),
    );
    for (const name of ['Problem', 'FieldError', 'Project', 'Session', 'Agent', 'TokenGrant', 'User'])
      expect(doc.components.schemas).toHaveProperty(name);
  });
});

describe('the server, license and tags', () => {
  it('names the root as the server, the license, and what each tag groups', async () => {
    const doc = await document();
    expect(doc.servers).toEqual([{ url: '/', description: expect.any(String) }]);
    expect(doc.info.license).toEqual({ name: 'Apache License 2.0', identifier: 'Apache-2.0' });
    expect(doc.tags.map((tag) => tag.name)).toEqual([
      'Operations',
      'Authentication',
      'Projects',
      'Members',
      'Audit log',
      'Sessions',
      'Agents',
      'Extensions',
      'Runs',
      'API keys',
      'Operators',
    ]);
    for (const tag of doc.tags) expect(tag.description, tag.name).toMatch(/\w/);
  });
});

describe('client errors', () => {
  it('documents a 4xx on every operation, Node’s 431 included', async () => {
    const doc = await document();
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        expect(operation.responses['431'], `${method} ${path}`).toEqual({
          $ref: '#/components/responses/HeadersTooLarge',
        });
      }
    }
    expect(doc.components.responses.HeadersTooLarge).toMatchObject({
      description: expect.stringMatching(/431|Node/),
    });
  });

  it('is answered 431 by Node, with no body, for headers over its limit', async () => {
    const doc = await document();
    const description = (doc.components.responses.HeadersTooLarge as JsonObject).description;
    expect(description).toMatch(/no body/);
    const url = new URL('/healthz', t?.baseUrl);
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(url, { headers: { 'X-Padding': 'x'.repeat(20 * 1024) } }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(answer).toEqual({ status: 431, body: '' });
  });
});

describe('/docs', () => {
  it('lists the named schemas and links them from the responses', async () => {
    t = await createTestApp();
    const html = await (await t.request('/docs')).text();
    expect(html).toContain('<section id="schema-Project"><h3>Project</h3>');
    expect(html).toContain('<a href="#schema-Project">Project</a>');
    expect(html).toContain('<b>431</b> Request headers over the limit');
    expect(html).not.toContain('undefined');
  });
});

describe('query parameters', () => {
  it('documents …/debug’s readOnly as an optional true/false query parameter', async () => {
    const doc = await document();
    const operation = doc.paths['/v1/{provider}/projects/{project_id}/sessions/{session_id}/debug']?.get as
      | { parameters?: Array<Record<string, unknown>> }
      | undefined;
    expect(operation?.parameters?.find((p) => p.name === 'readOnly')).toMatchObject({
      in: 'query',
      required: false,
      schema: { type: 'string', enum: ['true', 'false'] },
      description: expect.stringContaining('only watches'),
    });
  });
});
