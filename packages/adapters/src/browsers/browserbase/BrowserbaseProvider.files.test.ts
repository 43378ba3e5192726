// nock is loaded before the Browserbase SDK (see testing/browserbaseTestKit.ts).

import { UploadTooLargeError } from '@browserdeck/domain';
import {
  API_KEY,
  BASE,
  browserbase,
  build,
  failure,
  ID,
  JSON_HEADERS,
  seen,
  useNockedBrowserbase,
} from '@browserdeck/testing/browserbase';
import notFound from '@browserdeck/testing/browserbase/fixtures/error-404.json' with { type: 'json' };
import internal from '@browserdeck/testing/browserbase/fixtures/error-500.json' with { type: 'json' };
import uploaded from '@browserdeck/testing/browserbase/fixtures/session-upload.json' with { type: 'json' };
import nock from 'nock';
import { describe, expect, it } from 'vitest';
import { BROWSERBASE_UPLOAD_MAX_BYTES, BROWSERBASE_UPLOADS_DIR } from './BrowserbaseProvider.ts';

useNockedBrowserbase();

/** Stands for Browserbase's zip: passed through byte for byte. */
const ZIP = Buffer.concat([Buffer.from('PK\u0003\u0004'), Buffer.alloc(100_000, 7)]);

async function read(archive: AsyncIterable<Uint8Array> | null): Promise<Buffer> {
  if (!archive) throw new Error('no downloads');
  const chunks: Uint8Array[] = [];
  for await (const chunk of archive) chunks.push(chunk);
  return Buffer.concat(chunks);
}

async function* text(value: string): AsyncGenerator<Uint8Array> {
  yield Buffer.from(value);
}

/** Browserbase's session upload endpoint, keeping each multipart body it received as text. */
function uploadEndpoint(bodies: string[]) {
  return nock(BASE, { reqheaders: { 'x-bb-api-key': API_KEY } }).post(
    `/v1/sessions/${ID}/uploads`,
    (body: unknown) => {
      bodies.push(typeof body === 'string' ? body : JSON.stringify(body));
      return true;
    },
  );
}

describe('BrowserbaseProvider.downloads', () => {
  it('passes Browserbase’s zip through as it streams', async () => {
    browserbase()
      .get(`/v1/sessions/${ID}/downloads`)
      .matchHeader('accept', 'application/zip')
      .reply(200, ZIP, { 'Content-Type': 'application/zip' });
    expect((await read(await build().provider.capabilities.files!.downloads(ID))).equals(ZIP)).toBe(true);
    expect(seen).toEqual([
      { method: 'GET', path: `/v1/sessions/${ID}/downloads`, body: undefined, apiKey: API_KEY },
    ]);
  });

  it('is null on 404, and retries a 500 as a read', async () => {
    browserbase()
      .get(`/v1/sessions/${ID}/downloads`)
      .reply(404, notFound, JSON_HEADERS)
      .get(`/v1/sessions/${ID}/downloads`)
      .reply(500, internal, JSON_HEADERS)
      .get(`/v1/sessions/${ID}/downloads`)
      .reply(200, ZIP, { 'Content-Type': 'application/zip' });
    const { provider } = build();
    expect(await provider.capabilities.files!.downloads(ID)).toBeNull();
    expect((await read(await provider.capabilities.files!.downloads(ID))).length).toBe(ZIP.length);
    expect(seen).toHaveLength(3);
  });
});

describe('BrowserbaseProvider.upload', () => {
  it('sends the file as the multipart field "file" under its name, once, and answers where Browserbase keeps it', async () => {
    const bodies: string[] = [];
    uploadEndpoint(bodies).reply(200, uploaded, JSON_HEADERS);
    const stored = await build().provider.capabilities.files!.upload(ID, {
      name: 'note.txt',
      content: text('hello, Browserbase'),
    });
    expect(stored).toEqual({ name: 'note.txt', size: 18, path: `${BROWSERBASE_UPLOADS_DIR}/note.txt` });
    expect(bodies).toHaveLength(1);
    expect(bodies[0]).toMatch(/name="file"; filename="note\.txt"/);
    expect(bodies[0]).toContain('hello, Browserbase');
  });

  it('takes at most BROWSERBASE_UPLOAD_MAX_BYTES (the SDK holds a file whole): past it, 413 and nothing sent', async () => {
    const MiB = Buffer.alloc(1024 * 1024, 1);
    let read = 0;
    async function* mebibytes(count: number, extra = 0): AsyncGenerator<Uint8Array> {
      for (let i = 0; i < count; i += 1) {
        read += MiB.length;
        yield MiB;
      }
      if (extra) yield Buffer.alloc(extra);
    }
    const { provider } = build();
    const tooLarge = provider.capabilities.files!.upload(ID, { name: 'big.bin', content: mebibytes(100, 1) });
    await expect(tooLarge).rejects.toBeInstanceOf(UploadTooLargeError);
    await expect(tooLarge).rejects.toMatchObject({
      code: 'payload_too_large',
      maxBytes: BROWSERBASE_UPLOAD_MAX_BYTES,
    });
    // It stops reading as the byte past the limit arrives, not at the end of a 4 GiB upload.
    read = 0;
    await expect(
      provider.capabilities.files!.upload(ID, { name: 'big.bin', content: mebibytes(4096) }),
    ).rejects.toMatchObject({
      code: 'payload_too_large',
    });
    expect(read).toBe(101 * MiB.length);
    expect(seen).toEqual([]);
  });

  it('is null on 404, and never retried: a 500 is one request and a provider_error', async () => {
    const bodies: string[] = [];
    uploadEndpoint(bodies).reply(404, notFound, JSON_HEADERS);
    const { provider } = build();
    expect(await provider.capabilities.files!.upload(ID, { name: 'a.txt', content: text('x') })).toBeNull();
    uploadEndpoint(bodies).reply(500, internal, JSON_HEADERS);
    expect(
      (await failure(provider.capabilities.files!.upload(ID, { name: 'a.txt', content: text('x') }))).code,
    ).toBe('provider_error');
    expect(bodies).toHaveLength(2);
  });
});
