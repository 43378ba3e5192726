import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { type FilesCapability, type UploadedSessionFile, UploadTooLargeError } from '@browserdeck/domain';
import type { BrowserbaseCalls } from './BrowserbaseCalls.ts';
import { loadBrowserbaseSdk } from './loadBrowserbaseSdk.ts';
import { withDeadline } from './withDeadline.ts';

/** How long a session file upload may take at least (it may be up to the upload limit). */
export const FILE_UPLOAD_TIMEOUT_MS = 120_000;
/**
 * Where Browserbase's browsers keep a session's uploads, by its uploads guide: the path its
 * `setInputFiles` examples give for a file uploaded through `sessions.uploads.create`.
 */
export const BROWSERBASE_UPLOADS_DIR = '/tmp/.uploads';
/**
 * The largest session file this provider passes on (100 MiB), whatever `UPLOAD_MAX_MB` allows: the
 * SDK sends a multipart body of known length, so it reads every upload whole into memory first
 * (`toFile` collects a stream too), and this bounds what one upload holds there.
 */
export const BROWSERBASE_UPLOAD_MAX_BYTES = 100 * 1024 * 1024;

/** The Browserbase provider's `files`: Browserbase's own zip of a session's downloads, and uploads. */
export class BrowserbaseFiles implements FilesCapability {
  private readonly calls: BrowserbaseCalls;
  private readonly timeoutMs: number;

  constructor(deps: { calls: BrowserbaseCalls; timeoutMs: number }) {
    this.calls = deps.calls;
    this.timeoutMs = deps.timeoutMs;
  }

  /**
   * Browserbase's zip of the session's downloads (`GET /v1/sessions/{id}/downloads`), passed through
   * as it streams; null on 404. A read: retried like the others until its answer starts.
   */
  async downloads(providerSessionId: string): Promise<AsyncIterable<Uint8Array> | null> {
    const id = encodeURIComponent(providerSessionId);
    const response = (await this.calls.read('read session downloads', (client, signal) =>
      client.sessions.downloads.list(id, { signal }),
    )) as Response | null;
    if (response === null) return null;
    return response.body
      ? Readable.fromWeb(response.body as WebReadableStream<Uint8Array>)
      : Readable.from([]);
  }

  /**
   * Uploads the file to Browserbase (`POST /v1/sessions/{id}/uploads`, multipart field `file`), once
   * (never retried: it could store it twice), under `FILE_UPLOAD_TIMEOUT_MS`. Browserbase answers
   * only `{ message }`: the path is where its browsers keep uploads (`BROWSERBASE_UPLOADS_DIR`).
   * The file is read whole first (the SDK sends only bodies of known length), so at most
   * `BROWSERBASE_UPLOAD_MAX_BYTES`: past it, `payload_too_large` before anything is sent. Null on 404.
   */
  async upload(
    providerSessionId: string,
    file: { readonly name: string; readonly content: AsyncIterable<Uint8Array> },
  ): Promise<UploadedSessionFile | null> {
    const { toFile } = await loadBrowserbaseSdk();
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of file.content) {
      size += chunk.byteLength;
      if (size > BROWSERBASE_UPLOAD_MAX_BYTES) {
        throw new UploadTooLargeError(
          BROWSERBASE_UPLOAD_MAX_BYTES,
          `The Browserbase provider takes files of up to ${BROWSERBASE_UPLOAD_MAX_BYTES} bytes (100 MiB).`,
        );
      }
      chunks.push(chunk);
    }
    const bytes = Buffer.concat(chunks, size);
    const upload = await toFile(bytes, file.name);
    const id = encodeURIComponent(providerSessionId);
    const timeoutMs = Math.max(this.timeoutMs, FILE_UPLOAD_TIMEOUT_MS);
    const body = await this.calls.call(
      'upload a file to a session',
      (client) =>
        withDeadline(timeoutMs, (signal) =>
          client.sessions.uploads.create(id, { file: upload }, { maxRetries: 0, signal }),
        ),
      true,
    );
    if (body === null) return null;
    return { name: file.name, size: bytes.length, path: `${BROWSERBASE_UPLOADS_DIR}/${file.name}` };
  }
}
