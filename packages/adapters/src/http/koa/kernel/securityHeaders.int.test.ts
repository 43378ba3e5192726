import { createHash } from 'node:crypto';
import { createTestApp, type TestApp } from '@browserdeck/testing/adapters';
import { afterEach, describe, expect, it } from 'vitest';

let t: TestApp;
afterEach(() => t?.close());

const API_POLICY = "default-src 'none'; frame-ancestors 'none'";

function expectSecurityHeaders(res: Response, what: string, policy = API_POLICY): void {
  expect(res.headers.get('x-content-type-options'), what).toBe('nosniff');
  expect(res.headers.get('x-frame-options'), what).toBe('DENY');
  expect(res.headers.get('content-security-policy'), what).toBe(policy);
}

describe('security headers (http-api.md §10)', () => {
  it('are on every kind of answer: success, no content, problems, 404, 405, OPTIONS, HEAD, metrics', async () => {
    t = await createTestApp();
    const user = await t.signUpAndIn();
    const created = await t.request('/v1/projects', {
      method: 'POST',
      token: user.accessToken,
      json: { name: 'P' },
    });
    const { id } = (await created.clone().json()) as { id: string };
    const answers: Array<[string, Response]> = [
      ['201 create', created],
      ['200 list', await t.request('/v1/projects', { token: user.accessToken })],
      ['204 delete', await t.request(`/v1/projects/${id}`, { method: 'DELETE', token: user.accessToken })],
      [
        '400 validation',
        await t.request('/v1/projects', { method: 'POST', token: user.accessToken, json: {} }),
      ],
      [
        '400 malformed',
        await t.request('/v1/auth/signin', {
          method: 'POST',
          body: '{',
          headers: { 'Content-Type': 'application/json' },
        }),
      ],
      ['401', await t.request('/v1/projects')],
      ['404', await t.request('/nowhere')],
      ['405', await t.request('/healthz', { method: 'POST' })],
      [
        '415',
        await t.request('/v1/auth/signin', {
          method: 'POST',
          body: 'x',
          headers: { 'Content-Type': 'text/plain' },
        }),
      ],
      ['OPTIONS', await t.request('/v1/projects', { method: 'OPTIONS' })],
      ['HEAD', await t.request('/healthz', { method: 'HEAD' })],
      ['metrics', await t.request('/metrics')],
      ['openapi', await t.request('/openapi.json')],
    ];
    for (const [what, res] of answers) expectSecurityHeaders(res, what);
  });

  it('are on a request cut off by the timeout', async () => {
    t = await createTestApp({
      overrides: {
        http: { requestTimeoutMs: 50 },
        database: { checkReadiness: () => new Promise((resolve) => setTimeout(resolve, 1_000)) },
      },
    });
    const res = await t.request('/readyz');
    expect(res.status).toBe(503);
    expectSecurityHeaders(res, 'timeout');
  });

  it('give /docs a policy that allows its inline style sheet by hash and nothing else', async () => {
    t = await createTestApp();
    const res = await t.request('/docs');
    expect(res.status).toBe(200);
    const html = await res.text();
    const styles = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1] ?? '');
    expect(styles).toHaveLength(1);
    const hash = createHash('sha256')
      .update(styles[0] ?? '')
      .digest('base64');
    expectSecurityHeaders(
      res,
      '/docs',
      `default-src 'none'; style-src 'sha256-${hash}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    );
    // What the policy would block must not be on the page in the first place.
    expect(html).not.toMatch(/<script|<link|<img|<iframe|<form|\sstyle=|\son[a-z]+=|src=/i);
    expect(html).not.toMatch(/(href|src)="(https?:)?\/\//i);
  });
});
