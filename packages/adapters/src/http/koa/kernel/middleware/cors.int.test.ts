import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { afterEach, describe, expect, it } from 'vitest';
import { cors } from './cors.ts';

let server: Server | undefined;
afterEach(() => {
  server?.closeAllConnections();
  server?.close();
  server = undefined;
});

/** An app with `cors(origins)` inside an error handler, answering 200, or 500 on `/fail`. */
async function start(origins: string[]): Promise<string> {
  const app = new Koa();
  app.use(async (ctx, next) => {
    try {
      await next();
    } catch {
      ctx.status = 500;
      ctx.body = { failed: true };
    }
  });
  app.use(cors(origins));
  app.use((ctx) => {
    if (ctx.path === '/fail') throw new Error('boom');
    ctx.body = { ok: true };
  });
  server = createServer(app.callback()).listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const PREFLIGHT = { 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'x-other' };

describe('cors', () => {
  it('adds nothing, not even Vary, when no origin is configured', async () => {
    const base = await start([]);
    const res = await fetch(base, { headers: { Origin: 'https://app.example' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.headers.get('vary')).toBeNull();
    const preflight = await fetch(base, {
      method: 'OPTIONS',
      headers: { Origin: 'https://app.example', ...PREFLIGHT },
    });
    expect(preflight.headers.get('access-control-allow-methods')).toBeNull();
  });

  it('answers a configured origin by name, exposes the API headers and never allows credentials', async () => {
    const base = await start(['https://app.example', 'https://other.example']);
    const res = await fetch(base, { headers: { Origin: 'https://other.example' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('https://other.example');
    expect(res.headers.get('access-control-expose-headers')).toBe(
      'X-Request-Id, Retry-After, X-Sync-Error, Idempotent-Replayed, Allow',
    );
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    expect(res.headers.get('vary')).toBe('Origin');
  });

  it('answers a preflight 204 with the API methods and headers, whatever else is asked', async () => {
    const base = await start(['https://app.example']);
    const res = await fetch(base, {
      method: 'OPTIONS',
      headers: { Origin: 'https://app.example', ...PREFLIGHT },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(res.headers.get('access-control-allow-methods')).toBe('GET, HEAD, POST, PUT, PATCH, DELETE');
    expect(res.headers.get('access-control-allow-headers')).toBe(
      'Authorization, Content-Type, Idempotency-Key, X-Request-Id, X-BB-API-Key',
    );
    expect(res.headers.get('access-control-max-age')).toBe('600');
  });

  it('serves other origins and requests without Origin, without CORS headers', async () => {
    const base = await start(['https://app.example']);
    for (const headers of [{ Origin: 'https://evil.example' }, {}]) {
      const res = await fetch(base, { headers });
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
    }
    const preflight = await fetch(base, {
      method: 'OPTIONS',
      headers: { Origin: 'https://evil.example', ...PREFLIGHT },
    });
    expect(preflight.headers.get('access-control-allow-methods')).toBeNull();
  });

  it('allows any origin with *', async () => {
    const base = await start(['*']);
    const res = await fetch(base, { headers: { Origin: 'https://anywhere.example' } });
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('keeps its headers on an answer written by the error handler outside it', async () => {
    const base = await start(['https://app.example']);
    const res = await fetch(`${base}/fail`, { headers: { Origin: 'https://app.example' } });
    expect(res.status).toBe(500);
    expect(res.headers.get('access-control-allow-origin')).toBe('https://app.example');
  });
});
