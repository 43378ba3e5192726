import type { IncomingMessage } from 'node:http';
import { bodyParser } from '@koa/bodyparser';
import type { Context } from 'koa';
import { httpError, isAnsweredError } from '../errors/toDomainError.ts';
import { HTTP_METHODS } from './RouteDefinition.ts';

/** http-api.md §1: bodies over 1 MiB are refused with 413. */
export const MAX_BODY_BYTES = 1024 * 1024;

const readJson = bodyParser({
  enableTypes: ['json'],
  // parseJsonBody has checked the media type already (415 for anything else).
  detectJSON: () => true,
  jsonLimit: MAX_BODY_BYTES,
  // Any JSON value, not only objects and arrays: the route's schema says what is wrong with `1`.
  jsonStrict: false,
  parsedMethods: [...HTTP_METHODS],
  encoding: 'utf-8',
});

/**
 * The request's JSON body, read by `@koa/bodyparser`; no body gives `undefined`. A body needs
 * `Content-Type: application/json` (415), uncompressed (415), at most `MAX_BODY_BYTES` (413, on
 * `Content-Length` before reading, then counted while streaming) and must be UTF-8 JSON (400
 * `malformed_json`). A `__proto__` key is kept as JSON.parse keeps it: `parseRequest` refuses it by name.
 */
export async function parseJsonBody(ctx: Context): Promise<unknown> {
  const { req } = ctx;
  if (!hasBody(req)) return undefined;
  if (!isJsonMediaType(req.headers['content-type'])) {
    throw httpError(
      'unsupported_media_type',
      'A request body must be sent as Content-Type: application/json.',
    );
  }
  const encoding = req.headers['content-encoding'];
  if (encoding !== undefined && encoding.toLowerCase() !== 'identity') {
    throw httpError('unsupported_media_type', 'Compressed request bodies are not accepted.');
  }
  // Attached before the parser reads: it decodes leniently (U+FFFD for a bad byte), http-api.md §1 says UTF-8.
  const utf8 = watchUtf8(req);
  try {
    let parsed = false;
    await readJson(ctx, async () => {
      parsed = true;
    });
    // It answers 499 without calling on when the client has gone already.
    if (!parsed) throw unreadable();
    if (!utf8.valid()) throw notUtf8();
    // Lenient mode hands an empty body back as ''.
    if (ctx.request.rawBody === '') throw notJson();
    return ctx.request.body;
  } catch (error) {
    if (isAnsweredError(error)) throw error;
    const { status, body } = Object(error) as { status?: unknown; body?: unknown };
    if (status === 413) {
      // The parser stops reading at the limit: drain the rest, so the client reads the answer.
      req.resume();
      throw httpError('payload_too_large', `The request body is larger than ${MAX_BODY_BYTES} bytes.`);
    }
    // A parse failure carries the text it read; anything else is the stream failing.
    if (typeof body !== 'string') throw unreadable();
    if (!utf8.valid()) throw notUtf8();
    return parseRefused(body);
  } finally {
    utf8.stop();
  }
}

/**
 * `text`, which the parser refused. It refuses a `__proto__` key anywhere outright (hapi's bourne);
 * Browserdeck reads such a body as JSON.parse does, an own key, and `parseRequest` names each one as an
 * invalid field, so the caller learns which.
 */
function parseRefused(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw notJson();
  }
}

/** Whether the request carries a body at all (a non-zero `Content-Length` or a transfer encoding). */
function hasBody(req: IncomingMessage): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true;
  const length = req.headers['content-length'];
  return length !== undefined && Number(length) > 0;
}

/** `application/json`, optionally with a UTF-8 charset parameter. */
function isJsonMediaType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const [type, ...parameters] = contentType.split(';').map((part) => part.trim().toLowerCase());
  if (type !== 'application/json') return false;
  return parameters.every((parameter) => {
    const [name, value = ''] = parameter.split('=').map((s) => s.trim());
    return name !== 'charset' || ['utf-8', 'utf8'].includes(value.replace(/^"|"$/g, ''));
  });
}

/** Checks the body's bytes as they stream past, keeping none of them; `valid()` once all are read. */
function watchUtf8(req: IncomingMessage): { valid(): boolean; stop(): void } {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let valid = true;
  let flushed = false;
  const onData = (chunk: Buffer) => {
    if (!valid) return;
    try {
      decoder.decode(chunk, { stream: true });
    } catch {
      valid = false;
    }
  };
  req.on('data', onData);
  return {
    // Once the whole body is read: a sequence cut off at the end is invalid too.
    valid: () => {
      if (valid && !flushed) {
        flushed = true;
        try {
          decoder.decode();
        } catch {
          valid = false;
        }
      }
      return valid;
    },
    stop: () => req.off('data', onData),
  };
}

const unreadable = () => httpError('malformed_json', 'The request body could not be read.');
const notUtf8 = () => httpError('malformed_json', 'The request body is not valid UTF-8.');
const notJson = () => httpError('malformed_json', 'The request body is not valid JSON.');
