import type { IncomingMessage } from 'node:http';
import { httpError } from '../errors/toDomainError.ts';

/** SPEC §1: bodies over 1 MiB are refused with 413. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** `application/json`, optionally with a UTF-8 charset parameter. */
export function isJsonMediaType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const [type, ...parameters] = contentType.split(';').map((part) => part.trim().toLowerCase());
  if (type !== 'application/json') return false;
  return parameters.every((parameter) => {
    const [name, value = ''] = parameter.split('=').map((s) => s.trim());
    return name !== 'charset' || ['utf-8', 'utf8'].includes(value.replace(/^"|"$/g, ''));
  });
}

/** Whether the request carries a body at all (a non-zero `Content-Length` or a transfer encoding). */
function hasBody(req: IncomingMessage): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true;
  const length = req.headers['content-length'];
  return length !== undefined && Number(length) > 0;
}

/**
 * Reads and parses a JSON request body. No body gives `undefined`. A body needs
 * `Content-Type: application/json` (415), at most `limitBytes` (413, checked on `Content-Length`
 * first and counted while streaming) and must parse as UTF-8 JSON (400 `malformed_json`).
 */
export async function readJsonBody(req: IncomingMessage, limitBytes = MAX_BODY_BYTES): Promise<unknown> {
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
  if (Number(req.headers['content-length'] ?? 0) > limitBytes) throw tooLarge(limitBytes);
  const raw = await collect(req, limitBytes);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(raw);
  } catch {
    throw httpError('malformed_json', 'The request body is not valid UTF-8.');
  }
  try {
    return JSON.parse(text);
  } catch {
    throw httpError('malformed_json', 'The request body is not valid JSON.');
  }
}

function tooLarge(limitBytes: number) {
  return httpError('payload_too_large', `The request body is larger than ${limitBytes} bytes.`);
}

/** The body's bytes; past the limit it stops keeping them, drains the rest and throws 413. */
function collect(req: IncomingMessage, limitBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const finish = (error: unknown, body?: Buffer) => {
      req.off('data', onData).off('end', onEnd).off('error', onError);
      if (error) reject(error);
      else resolve(body ?? Buffer.alloc(0));
    };
    const onData = (chunk: Buffer) => {
      total += chunk.length;
      if (total <= limitBytes) return void chunks.push(chunk);
      finish(tooLarge(limitBytes));
      req.resume();
    };
    const onEnd = () => finish(undefined, Buffer.concat(chunks));
    const onError = () => finish(httpError('malformed_json', 'The request body could not be read.'));
    req.on('data', onData).on('end', onEnd).on('error', onError);
  });
}
