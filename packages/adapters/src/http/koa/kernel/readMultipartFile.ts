import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { UploadTooLargeError, ValidationError } from '@browserdeck/domain';
import busboy from 'busboy';
import type { Context } from 'koa';
import { httpError } from './errors/toDomainError.ts';

/** The multipart field a file is read from unless told otherwise (Browserbase's name for it). */
export const DEFAULT_FILE_FIELD = 'file';

/**
 * What a multipart body may carry around its file, and no more: form fields and parts, and the size
 * of the parts' headers and fields. The file's own size is the caller's `maxBytes`.
 */
const FORM_LIMITS = { fields: 20, fieldSize: 64 * 1024, parts: 40, headerPairs: 100 } as const;

/** How far past `maxBytes` a declared `Content-Length` may go (boundaries, part headers, small fields). */
const ENVELOPE_BYTES = 64 * 1024;

/** How `readMultipartFile` reads: which field holds the file, and how large it may be. */
export interface MultipartFileOptions {
  /** The form field that holds the file (default `file`). */
  readonly field?: string | undefined;
  /** The file's largest size in bytes: one byte more fails the read with `payload_too_large`. */
  readonly maxBytes: number;
}

/**
 * One file of a `multipart/form-data` request, as its bytes arrive. Read `content` once (or call
 * `bytes()`); whoever reads it sees `payload_too_large` past the limit and a stream error when the
 * client goes away mid-file. `discard()` lets the rest of the request be read and dropped, so an
 * answer given before the file was read (a 404) reaches the client; the router calls it once the
 * handler is done, whatever it did.
 */
export class MultipartFile {
  /** The file name the client sent (`filename`), without any folders (busboy keeps the base name); '' if none. */
  readonly name: string;
  /** The part's media type as the client declared it (not checked). */
  readonly mimeType: string;
  /** The file's bytes, streamed: at most `maxBytes`, else the iteration throws `payload_too_large`. */
  readonly content: AsyncIterable<Uint8Array>;
  private readonly stream: Readable;

  constructor(part: {
    name: string;
    mimeType: string;
    stream: Readable & { truncated?: boolean };
    maxBytes: number;
  }) {
    this.name = part.name;
    this.mimeType = part.mimeType;
    this.stream = part.stream;
    this.content = checkedContent(part.stream, part.maxBytes);
  }

  /** The whole file in memory (at most `maxBytes`): for small files such as an extension's zip. */
  async bytes(): Promise<Buffer> {
    const chunks: Uint8Array[] = [];
    for await (const chunk of this.content) chunks.push(chunk);
    return Buffer.concat(chunks);
  }

  /** Drops whatever of the file (and of the request after it) is still unread. Idempotent. */
  discard(): void {
    if (!this.stream.readableEnded && !this.stream.destroyed) this.stream.resume();
  }
}

/**
 * Reads a `multipart/form-data` request (with busboy) up to the start of its file in `field`, and
 * answers that file while its bytes are still arriving: nothing is buffered or written to disk here.
 * Other fields and files are read past and dropped. Refusals, as problems of the request:
 * another media type is 415 `unsupported_media_type`; a `Content-Length` past `maxBytes` (plus room
 * for the form's envelope) is 413 `payload_too_large` before anything is read; a body that is not a
 * readable form, or has no file in `field`, is 400 `validation_failed` naming the field. A file past
 * `maxBytes` fails whoever reads `content` with `payload_too_large` as the byte past it arrives.
 */
export async function readMultipartFile(ctx: Context, options: MultipartFileOptions): Promise<MultipartFile> {
  const field = options.field ?? DEFAULT_FILE_FIELD;
  const { req } = ctx;
  const contentType = req.headers['content-type'] ?? '';
  if (!/^multipart\/form-data\s*;/i.test(contentType)) {
    throw httpError(
      'unsupported_media_type',
      `The file must be sent as multipart/form-data, in a field named "${field}".`,
    );
  }
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > options.maxBytes + ENVELOPE_BYTES) {
    throw new UploadTooLargeError(options.maxBytes);
  }
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: req.headers,
      // One more byte than allowed marks the file truncated: a file of exactly `maxBytes` passes.
      limits: { ...FORM_LIMITS, fileSize: options.maxBytes + 1 },
      // Browsers and fetch send a file name as raw UTF-8.
      defParamCharset: 'utf8',
    });
  } catch {
    throw unreadable(field, 'its multipart boundary is missing or malformed');
  }
  return new Promise<MultipartFile>((resolve, reject) => {
    let found = false;
    parser.on('file', (name, stream, info) => {
      if (found || name !== field) {
        stream.resume();
        return;
      }
      found = true;
      resolve(
        new MultipartFile({
          name: info.filename ?? '',
          mimeType: info.mimeType,
          stream,
          maxBytes: options.maxBytes,
        }),
      );
    });
    parser.on('close', () => {
      if (!found) reject(ValidationError.field(field, 'is required: send the file in this multipart field'));
    });
    parser.on('error', (error: Error) => {
      // Once the file is handed out, its reader hears of the failure through the file's stream.
      if (!found) reject(unreadable(field, error.message));
    });
    pipeRequest(req, parser);
  });
}

/** Feeds the request to the parser; a client that goes away mid-body fails the parse (and the file's stream). */
function pipeRequest(req: IncomingMessage, parser: busboy.Busboy): void {
  const gone = () => {
    if (!req.complete) parser.destroy(new Error('the client closed the connection before the body ended'));
  };
  req.once('close', gone);
  req.once('error', gone);
  req.pipe(parser);
}

/** The file's chunks, failing with `payload_too_large` when busboy cut it at its limit. */
async function* checkedContent(
  stream: Readable & { truncated?: boolean },
  maxBytes: number,
): AsyncGenerator<Uint8Array> {
  for await (const chunk of stream) yield chunk as Buffer;
  if (stream.truncated) throw new UploadTooLargeError(maxBytes);
}

function unreadable(field: string, why: string): ValidationError {
  return new ValidationError(
    [{ path: field, message: `the multipart/form-data body could not be read: ${why}` }],
    `The request body is not a readable multipart/form-data form (${why}).`,
  );
}
