// nock is loaded before the Browserbase SDK (see testing/browserbaseTestKit.ts).
import {
  API_KEY,
  BASE,
  browserbase,
  build,
  failure,
  JSON_HEADERS,
  request,
  seen,
  useNockedBrowserbase,
} from '@browserdeck/testing/browserbase';
import notFound from '@browserdeck/testing/browserbase/fixtures/error-404.json' with { type: 'json' };
import internal from '@browserdeck/testing/browserbase/fixtures/error-500.json' with { type: 'json' };
import extension from '@browserdeck/testing/browserbase/fixtures/extension.json' with { type: 'json' };
import created from '@browserdeck/testing/browserbase/fixtures/session-created.json' with { type: 'json' };
import nock from 'nock';
import { describe, expect, it } from 'vitest';

useNockedBrowserbase();

/** Stands for a zip: the provider sends the bytes as they are (the use case checked them). */
const ARCHIVE = new TextEncoder().encode('PK\u0003\u0004 a stored extension zip');

/** Browserbase's upload endpoint, keeping each multipart body it received as text. */
function uploadEndpoint(bodies: string[]) {
  return nock(BASE, { reqheaders: { 'x-bb-api-key': API_KEY } }).post('/v1/extensions', (body: unknown) => {
    bodies.push(typeof body === 'string' ? body : JSON.stringify(body));
    return true;
  });
}

describe('BrowserbaseProvider.extensions.upload', () => {
  it('uploads the zip as the multipart field "file" under its name, once, and answers Browserbase’s id', async () => {
    const bodies: string[] = [];
    uploadEndpoint(bodies).reply(200, extension, JSON_HEADERS);
    const id = await build().provider.extensions.upload(ARCHIVE, 'stagehand-extension.zip');
    expect(id).toBe(extension.id);
    expect(bodies).toHaveLength(1);
    expect(bodies[0]).toMatch(/name="file"; filename="stagehand-extension\.zip"/);
    expect(bodies[0]).toContain('a stored extension zip');
  });

  it('is never retried: a 500 is one request and a provider_error', async () => {
    const bodies: string[] = [];
    uploadEndpoint(bodies).reply(500, internal, JSON_HEADERS);
    expect((await failure(build().provider.extensions.upload(ARCHIVE, 'e.zip'))).code).toBe('provider_error');
    expect(bodies).toHaveLength(1);
  });

  it('refuses an answer without an id', async () => {
    uploadEndpoint([]).reply(200, { ...extension, id: '' }, JSON_HEADERS);
    expect((await failure(build().provider.extensions.upload(ARCHIVE, 'e.zip'))).code).toBe('provider_error');
  });
});

describe('BrowserbaseProvider.extensions.delete', () => {
  it('deletes Browserbase’s copy', async () => {
    browserbase().delete(`/v1/extensions/${extension.id}`).reply(204);
    await build().provider.extensions.delete(extension.id);
    expect(seen).toEqual([
      { method: 'DELETE', path: `/v1/extensions/${extension.id}`, body: undefined, apiKey: API_KEY },
    ]);
  });

  it('takes a 404 as done, and fails on a 500 without retrying', async () => {
    browserbase()
      .delete(`/v1/extensions/${extension.id}`)
      .reply(404, notFound, JSON_HEADERS)
      .delete(`/v1/extensions/${extension.id}`)
      .reply(500, internal, JSON_HEADERS);
    const { provider } = build();
    await expect(provider.extensions.delete(extension.id)).resolves.toBeUndefined();
    expect((await failure(provider.extensions.delete(extension.id))).code).toBe('provider_error');
    expect(seen).toHaveLength(2);
  });
});

describe('BrowserbaseProvider.create with an extension', () => {
  it('names Browserbase’s id for it, not ours', async () => {
    browserbase().post('/v1/sessions').reply(201, created, JSON_HEADERS);
    await build().provider.create({
      ...request,
      extensionId: '0197f3a0-0000-7000-8000-00000000e071',
      extension: {
        id: '0197f3a0-0000-7000-8000-00000000e071',
        name: 'Stagehand Runtime',
        archive: ARCHIVE,
        providerExtensionId: extension.id,
      },
    });
    expect(seen[0]!.body).toMatchObject({ extensionId: extension.id });
  });
});
