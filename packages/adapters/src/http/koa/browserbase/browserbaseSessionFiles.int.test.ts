import { createTestApp, type TestApp, type TestUser } from '@browserdeck/testing/adapters';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

let t: TestApp;
let alice: TestUser;
let projectId: string;
let key: string;

/** A request as Browserbase's SDK sends it: the key in X-BB-API-Key. */
const bb = (
  method: string,
  path: string,
  init: { body?: RequestInit['body']; json?: unknown; apiKey?: string } = {},
) =>
  t.request(path, {
    method,
    headers: { 'X-BB-API-Key': init.apiKey ?? key },
    ...(init.body === undefined ? {} : { body: init.body }),
    ...(init.json === undefined ? {} : { json: init.json }),
  });

beforeEach(async () => {
  t = await createTestApp({ uploadMaxBytes: 64 });
  alice = await t.signUpAndIn('alice@example.com');
  projectId = await t.createProject(alice, 'Shop');
  key = await t.createApiKey(alice, projectId);
});
afterEach(() => t.close());

async function newSession(): Promise<{ id: string }> {
  const res = await bb('POST', '/v1/sessions', { json: { projectId } });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as { id: string };
}

function form(content: string, name = 'note.txt'): FormData {
  const body = new FormData();
  body.append('file', new Blob([content]), name);
  return body;
}

/** Browserbase's error body. */
async function expectBrowserbaseError(res: Response, status: number, message: RegExp) {
  expect(res.status).toBe(status);
  const body = (await res.json()) as Record<string, unknown>;
  expect(body).toMatchObject({ statusCode: status, error: expect.any(String), code: expect.any(String) });
  expect(body.message).toMatch(message);
  return body;
}

describe('Browserbase’s session files', () => {
  it('GET /v1/sessions/{id}/downloads answers the zip', async () => {
    const session = await newSession();
    const stored = await t.sessions.findInProject(projectId, session.id);
    t.provider.setDownloads(stored!.providerSessionId, Buffer.from('PK zip bytes'));
    const res = await bb('GET', `/v1/sessions/${session.id}/downloads`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(await res.text()).toBe('PK zip bytes');
  });

  it('POST /v1/sessions/{id}/uploads answers 200 { message } with the path beside it', async () => {
    const session = await newSession();
    const stored = await t.sessions.findInProject(projectId, session.id);
    const res = await bb('POST', `/v1/sessions/${session.id}/uploads`, { body: form('from the SDK') });
    expect(res.status, await res.clone().text()).toBe(200);
    const path = `/fake/uploads/${stored!.providerSessionId}/note.txt`;
    expect(await res.json()).toEqual({
      message: `Uploaded note.txt (12 bytes) to ${path}.`,
      name: 'note.txt',
      size: 12,
      path,
    });
  });

  it('takes 100 files per session; the 101st is a 409 upload_limit_reached in Browserbase’s shape', async () => {
    const session = await newSession();
    for (let i = 0; i < 100; i++) {
      const res = await bb('POST', `/v1/sessions/${session.id}/uploads`, {
        body: form(`f${i}`, `f${i}.txt`),
      });
      expect(res.status, await res.clone().text()).toBe(200);
    }
    const refused = await expectBrowserbaseError(
      await bb('POST', `/v1/sessions/${session.id}/uploads`, { body: form('more', 'more.txt') }),
      409,
      /100 files/,
    );
    expect(refused).toMatchObject({ error: 'Conflict', code: 'upload_limit_reached' });
    const stored = await t.sessions.findInProject(projectId, session.id);
    expect(t.provider.uploads.get(stored!.providerSessionId)).toHaveLength(100);
  });

  it('answers in Browserbase’s error shape: 404 for another project’s session, 413 past the limit, 400 without a file', async () => {
    const session = await newSession();
    const otherKey = await t.createApiKey(alice, await t.createProject(alice, 'Shop'));
    await expectBrowserbaseError(
      await bb('GET', `/v1/sessions/${session.id}/downloads`, { apiKey: otherKey }),
      404,
      /not found/i,
    );
    await expectBrowserbaseError(
      await bb('POST', `/v1/sessions/${session.id}/uploads`, { body: form('x'), apiKey: otherKey }),
      404,
      /not found/i,
    );
    await expectBrowserbaseError(await bb('GET', '/v1/sessions/not-a-session/downloads'), 404, /not found/i);
    const tooLarge = await expectBrowserbaseError(
      await bb('POST', `/v1/sessions/${session.id}/uploads`, { body: form('x'.repeat(65)) }),
      413,
      /64 bytes/,
    );
    expect(tooLarge.code).toBe('payload_too_large');
    const empty = new FormData();
    empty.append('other', 'x');
    await expectBrowserbaseError(
      await bb('POST', `/v1/sessions/${session.id}/uploads`, { body: empty }),
      400,
      /file/,
    );
    // A user's access token is not a Browserbase key.
    const res = await t.request(`/v1/sessions/${session.id}/downloads`, { token: alice.accessToken });
    expect(res.status).toBe(401);
  });
});
