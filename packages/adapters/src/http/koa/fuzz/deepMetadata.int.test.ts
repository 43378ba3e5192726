import { createTestApp, type TestApp } from '@browserdeck/testing/adapters';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

/**
 * Found by the route fuzzer: the `metadata` size checks measured the value with `JSON.stringify`,
 * which throws on a JSON object nested a few thousand levels deep (well inside the 1 MiB body
 * limit), and the request ended as 500. Size checks now use `jsonByteLength`, which refuses it.
 */
const DEPTH = 10_000;
const nested = `${'{"a":'.repeat(DEPTH)}1${'}'.repeat(DEPTH)}`;

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(() => t.close());

const post = (path: string, body: string, token?: string) =>
  t.request(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body,
    ...(token ? { token } : {}),
  });

describe('metadata nested 10 000 levels deep', () => {
  it('sign-up answers 400 validation_failed, not 500', async () => {
    const res = await post(
      '/v1/auth/signup',
      `{"email":"deep@example.com","password":"correct horse","metadata":{"a":${nested}}}`,
    );
    expect(res.status).toBe(400);
  });

  it('agent create answers 400 validation_failed, not 500', async () => {
    const user = await t.signUpAndIn();
    const project = await t.request('/v1/projects', {
      method: 'POST',
      token: user.accessToken,
      json: { name: 'P' },
    });
    const { id } = (await project.json()) as { id: string };
    const res = await post(
      `/v1/browserbase/projects/${id}/agents`,
      `{"name":"deep","metadata":{"a":${nested}}}`,
      user.accessToken,
    );
    expect(res.status).toBe(400);
  });
});
