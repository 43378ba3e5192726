import { once } from 'node:events';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAnsweredError } from '../errors/toDomainError.ts';
import { MAX_BODY_BYTES, parseJsonBody } from './parseJsonBody.ts';

let server: Server;
let port: number;

beforeAll(async () => {
  const app = new Koa();
  app.use(async (ctx) => {
    try {
      const body = await parseJsonBody(ctx);
      ctx.body = { absent: body === undefined, body: body ?? null, protoIsOwn: hasOwnProto(body) };
    } catch (error) {
      if (!isAnsweredError(error)) throw error;
      ctx.status = 400;
      ctx.body = { code: error.code, message: error.message };
    }
  });
  server = createServer(app.callback()).listen(0, '127.0.0.1');
  await once(server, 'listening');
  port = (server.address() as AddressInfo).port;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

function hasOwnProto(value: unknown): boolean {
  const env = (value as { env?: unknown } | undefined)?.env;
  return typeof env === 'object' && env !== null && Object.hasOwn(env, '__proto__');
}

interface Answer {
  absent?: boolean;
  body?: unknown;
  protoIsOwn?: boolean;
  code?: string;
  message?: string;
}

/** Sends `chunks` as written (no body at all when empty), chunked unless a Content-Length is given. */
function send(chunks: Uint8Array[], headers: Record<string, string | number> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/', headers }, async (res) => {
      let text = '';
      for await (const chunk of res) text += chunk;
      resolve(JSON.parse(text) as Answer);
    });
    req.on('error', reject);
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

const JSON_TYPE = { 'Content-Type': 'application/json' };
const bytes = (text: string) => new TextEncoder().encode(text);

describe('parseJsonBody', () => {
  it('gives undefined for a request without a body, whatever its Content-Type', async () => {
    expect(await send([], { 'Content-Length': 0 })).toMatchObject({ absent: true });
    expect(await send([], { 'Content-Length': 0, 'Content-Type': 'text/plain' })).toMatchObject({
      absent: true,
    });
  });

  it('parses any JSON value, not only objects, so the route schema can name what is wrong', async () => {
    expect(await send([bytes('1')], JSON_TYPE)).toMatchObject({ absent: false, body: 1 });
    expect(await send([bytes('null')], JSON_TYPE)).toMatchObject({ absent: false, body: null });
    expect(await send([bytes('"x"')], JSON_TYPE)).toMatchObject({ body: 'x' });
  });

  it('keeps a __proto__ key as an own key, as JSON.parse does, for parseRequest to refuse by name', async () => {
    const answer = await send([bytes('{"env":{"__proto__":"x","A":"1"}}')], JSON_TYPE);
    expect(answer.protoIsOwn).toBe(true);
    expect(answer.body).toEqual({ env: JSON.parse('{"__proto__":"x","A":"1"}') });
    expect(await send([bytes('{"env":{"constructor":"y"}}')], JSON_TYPE)).toMatchObject({
      body: { env: { constructor: 'y' } },
    });
  });

  it('accepts a literal U+FFFD, which is valid UTF-8', async () => {
    expect(await send([bytes('{"name":"\uFFFD"}')], JSON_TYPE)).toMatchObject({ body: { name: '\uFFFD' } });
  });

  it.each([
    ['a byte that is never UTF-8', [new Uint8Array([0x22, 0xff, 0x22])]],
    ['a sequence cut off at the end', [new Uint8Array([0x22, 0x61, 0x22, 0x20, 0xe2, 0x82])]],
    [
      'a sequence split across chunks that does not complete',
      [bytes('"a'), new Uint8Array([0xe2]), bytes('"')],
    ],
  ])('refuses %s as malformed_json even when the rest parses', async (_label, chunks) => {
    expect(await send(chunks, JSON_TYPE)).toEqual({
      code: 'malformed_json',
      message: 'The request body is not valid UTF-8.',
    });
  });

  it('accepts a multi-byte character split across chunks', async () => {
    const euro = bytes('"€"');
    expect(await send([euro.slice(0, 2), euro.slice(2)], JSON_TYPE)).toMatchObject({ body: '€' });
  });

  it.each([
    ['an empty chunked body', [new Uint8Array(0)]],
    ['whitespace only', [bytes('  ')]],
    ['truncated JSON', [bytes('{"a":')]],
  ])('answers malformed_json for %s', async (_label, chunks) => {
    expect(await send(chunks, { ...JSON_TYPE, 'Transfer-Encoding': 'chunked' })).toEqual({
      code: 'malformed_json',
      message: 'The request body is not valid JSON.',
    });
  });

  it.each([
    ['gzip', { 'Content-Encoding': 'gzip' }, 'Compressed request bodies are not accepted.'],
    ['text/plain', { 'Content-Type': 'text/plain' }, undefined],
    ['a latin1 charset', { 'Content-Type': 'application/json; charset=latin1' }, undefined],
    ['a JSON subtype', { 'Content-Type': 'application/json-patch+json' }, undefined],
  ])('refuses %s with unsupported_media_type', async (_label, headers, message) => {
    const answer = await send([bytes('{}')], { ...JSON_TYPE, ...headers });
    expect(answer.code).toBe('unsupported_media_type');
    if (message) expect(answer.message).toBe(message);
  });

  it('answers payload_too_large past MAX_BODY_BYTES, declared or streamed, and serves the next request', async () => {
    const tooLarge = {
      code: 'payload_too_large',
      message: `The request body is larger than ${MAX_BODY_BYTES} bytes.`,
    };
    const over = bytes(`{}${' '.repeat(MAX_BODY_BYTES - 1)}`);
    expect(await send([over], { ...JSON_TYPE, 'Content-Length': over.length })).toEqual(tooLarge);
    const chunk = bytes(' '.repeat(64 * 1024));
    expect(
      await send(
        Array.from({ length: 17 }, () => chunk),
        JSON_TYPE,
      ),
    ).toEqual(tooLarge);
    const exact = `{}${' '.repeat(MAX_BODY_BYTES - 2)}`;
    expect(await send([bytes(exact)], JSON_TYPE)).toMatchObject({ body: {} });
  });
});
