import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import {
  assertProblem,
  createTestApp,
  type TestApp,
  type TestAppOptions,
} from '@browserdeck/testing/adapters';
import Koa from 'koa';
import mount from 'koa-mount';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  BROWSERBASE_LIVE_VIEW_ORIGIN,
  consoleContentSecurityPolicy,
} from './consoleContentSecurityPolicy.ts';
import { defaultConsoleDir } from './defaultConsoleDir.ts';
import { BUILD_COMMAND, IMMUTABLE } from './serveConsole.ts';

/** A built console as Vite emits it: relative asset URLs, hashed names, one unhashed public file. */
const INDEX_HTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Browserdeck console</title>
<link rel="icon" href="./favicon.svg" type="image/svg+xml" />
<script type="module" crossorigin src="./assets/index-Ab12Cd34.js"></script>
<link rel="stylesheet" crossorigin href="./assets/index-Ef56Gh78.css">
</head><body><div id="app"></div></body></html>
`;
const SCRIPT = `console.log(${JSON.stringify('x'.repeat(4000))});\n`;
const STYLE = 'body{margin:0}\n';
const SECRET = 'secret outside the console folder';

let scratch: string;
let dist: string;
let empty: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'browserdeck-console-'));
  dist = join(scratch, 'dist');
  empty = join(scratch, 'not-built');
  await mkdir(join(dist, 'assets'), { recursive: true });
  await mkdir(empty);
  await writeFile(join(dist, 'index.html'), INDEX_HTML);
  await writeFile(join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  await writeFile(join(dist, 'assets', 'index-Ab12Cd34.js'), SCRIPT);
  await writeFile(join(dist, 'assets', 'index-Ef56Gh78.css'), STYLE);
  await writeFile(join(dist, '.env'), SECRET);
  await writeFile(join(scratch, 'secret.txt'), SECRET);
  await symlink(join(scratch, 'secret.txt'), join(dist, 'assets', 'escape.js'));
});
afterAll(() => rm(scratch, { recursive: true, force: true }));

let t: TestApp | undefined;
let host: Server | undefined;
afterEach(async () => {
  host?.closeAllConnections();
  host?.close();
  host = undefined;
  await t?.close();
  t = undefined;
});

async function app(options: TestAppOptions = {}): Promise<TestApp> {
  const started = await createTestApp({
    ...options,
    overrides: { ...options.overrides, http: { console: { dir: dist }, ...options.overrides?.http } },
  });
  t = started;
  return started;
}

/** A raw request, so the path reaches the server exactly as written (fetch resolves `..` itself). */
function raw(
  baseUrl: string,
  path: string,
  method = 'GET',
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ hostname, port, path, method, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const PAGE_POLICY = consoleContentSecurityPolicy([BROWSERBASE_LIVE_VIEW_ORIGIN]);

describe('the web console at /console (docs/console.md)', () => {
  it('serves its page with no-cache, the strict page policy and absolute asset URLs', async () => {
    const { request } = await app();
    const res = await request('/console');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('content-security-policy')).toBe(PAGE_POLICY);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('etag')).toMatch(/^"[\w-]+"$/);
    const html = await res.text();
    expect(html).toContain(
      '<script type="module" crossorigin src="/console/assets/index-Ab12Cd34.js"></script>',
    );
    expect(html).toContain('href="/console/assets/index-Ef56Gh78.css"');
    expect(html).toContain('href="/console/favicon.svg"');
    expect(html).not.toContain('"./');
  });

  it("the page's policy allows no inline script or style, no eval, and frames only itself and the live view", () => {
    expect(PAGE_POLICY).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; media-src blob:; font-src 'self'; " +
        "connect-src 'self'; frame-src 'self' https://www.browserbase.com; base-uri 'none'; form-action 'self'; " +
        "frame-ancestors 'none'",
    );
    expect(
      consoleContentSecurityPolicy(['https://live.example.com:8443', "'unsafe-inline'", 'javascript:x']),
    ).toContain("frame-src 'self' https://live.example.com:8443;");
  });

  it('frames only its own origin when the provider is not Browserbase', async () => {
    const { request } = await app({ providerName: 'local', regions: ['local'] });
    const res = await request('/console/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain("frame-src 'self';");
    expect(res.headers.get('content-security-policy')).not.toContain('browserbase');
  });

  it('answers client-side routes with the same page (history routing), and /console/index.html too', async () => {
    const { request } = await app();
    const root = await (await request('/console')).text();
    for (const path of [
      '/console/',
      '/console/signin',
      '/console/projects/0199/sessions/0199?status=RUNNING',
      '/console/index.html',
    ]) {
      const res = await request(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type'), path).toBe('text/html; charset=utf-8');
      expect(res.headers.get('cache-control'), path).toBe('no-cache');
      expect(res.headers.get('content-security-policy'), path).toBe(PAGE_POLICY);
      expect(await res.text(), path).toBe(root);
    }
  });

  it('serves hashed assets for a year, immutable, with their content types, gzipped when asked', async () => {
    const { request } = await app();
    const js = await request('/console/assets/index-Ab12Cd34.js', { headers: { 'Accept-Encoding': 'gzip' } });
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(js.headers.get('cache-control')).toBe(IMMUTABLE);
    expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(js.headers.get('content-encoding')).toBe('gzip');
    expect(js.headers.get('vary')).toBe('Accept-Encoding');
    expect(await js.text()).toBe(SCRIPT);
    const plain = await raw(t!.baseUrl, '/console/assets/index-Ab12Cd34.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
    const css = await request('/console/assets/index-Ef56Gh78.css');
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(css.headers.get('cache-control')).toBe(IMMUTABLE);
    expect(await css.text()).toBe(STYLE);
    const icon = await request('/console/favicon.svg');
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toBe('image/svg+xml');
    expect(icon.headers.get('cache-control')).toBe('no-cache');
  });

  it('answers 304 to a request whose copy is current, per encoding', async () => {
    // Raw requests: fetch sends `Cache-Control: no-cache` with a conditional header, which asks
    // for a full answer.
    const { baseUrl } = await app();
    for (const [path, encoding] of [
      ['/console', 'identity'],
      ['/console/assets/index-Ef56Gh78.css', 'identity'],
      ['/console/assets/index-Ab12Cd34.js', 'gzip'],
    ] as const) {
      const first = await raw(baseUrl, path, 'GET', { 'Accept-Encoding': encoding });
      expect(first.status, path).toBe(200);
      const etag = String(first.headers.etag ?? '');
      expect(etag, path).toMatch(encoding === 'gzip' ? /-gz"$/ : /^"[\w-]+"$/);
      const again = await raw(baseUrl, path, 'GET', { 'If-None-Match': etag, 'Accept-Encoding': encoding });
      expect(again.status, path).toBe(304);
      expect(again.body, path).toBe('');
      const other = encoding === 'gzip' ? 'identity' : 'gzip';
      const changed = await raw(baseUrl, path, 'GET', {
        'If-None-Match': '"stale"',
        'Accept-Encoding': other,
      });
      expect(changed.status, path).toBe(200);
    }
  });

  it('answers HEAD like GET without a body', async () => {
    const { request } = await app();
    for (const path of ['/console', '/console/projects', '/console/assets/index-Ef56Gh78.css']) {
      const head = await raw(t!.baseUrl, path, 'HEAD');
      const get = await request(path);
      expect(head.status, path).toBe(200);
      expect(head.body, path).toBe('');
      expect(head.headers['content-type'], path).toBe(get.headers.get('content-type'));
      expect(head.headers['cache-control'], path).toBe(get.headers.get('cache-control'));
      expect(Number(head.headers['content-length']), path).toBe((await get.arrayBuffer()).byteLength);
    }
  });

  it('refuses other methods with 405 and Allow, and answers OPTIONS 204', async () => {
    const { request } = await app();
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      const res = await request('/console/projects', { method });
      expect(res.headers.get('allow'), method).toBe('GET, HEAD');
      await assertProblem(res, 405, 'method_not_allowed');
    }
    const options = await request('/console', { method: 'OPTIONS' });
    expect(options.status).toBe(204);
    expect(options.headers.get('allow')).toBe('GET, HEAD');
  });

  it('answers 404 for a missing asset or file, not the page', async () => {
    const { request } = await app();
    await assertProblem(await request('/console/assets/index-Missing1.js'), 404, 'not_found');
    await assertProblem(await request('/console/assets/'), 404, 'not_found');
    await assertProblem(await request('/console/robots.txt'), 404, 'not_found');
    // Not the console at all: the API's own 404.
    await assertProblem(await request('/consoles'), 404, 'not_found');
  });

  it('never serves a file outside its folder or a hidden one: dot segments, encoded ones, symlinks', async () => {
    const { baseUrl } = await app();
    const attempts = [
      '/console/../secret.txt',
      '/console/assets/../../secret.txt',
      '/console/%2e%2e/secret.txt',
      '/console/assets/%2E%2E/%2e%2e/secret.txt',
      '/console/..%2fsecret.txt',
      '/console/assets/..%5c..%5csecret.txt',
      '/console/.env',
      '/console/%2eenv',
      '/console/assets/escape.js',
      '/console/assets/index-Ab12Cd34.js%00.css',
      '/console/%ZZ',
    ];
    for (const path of attempts) {
      const res = await raw(baseUrl, path);
      expect(res.status, path).toBe(404);
      expect(res.body, path).not.toContain(SECRET);
      expect(String(res.headers['content-type']), path).toMatch(/^application\/problem\+json/);
    }
  });

  it('answers 503 console_unavailable naming the build command when the console is not built', async () => {
    const { request } = await app({ overrides: { http: { console: { dir: empty } } } });
    for (const path of ['/console', '/console/projects', '/console/assets/index-Ab12Cd34.js']) {
      const body = await assertProblem(await request(path), 503, 'console_unavailable');
      expect(body.detail, path).toContain(BUILD_COMMAND);
      expect(body.detail, path).toContain('npm run build -w @browserdeck/console');
    }
  });

  it('is not served at all with console: false', async () => {
    const { request } = await app({ overrides: { http: { console: false } } });
    await assertProblem(await request('/console'), 404, 'not_found');
    await assertProblem(await request('/console/assets/index-Ab12Cd34.js'), 404, 'not_found');
  });

  it('under a mount prefix, the page links its assets under the prefix, and they load there', async () => {
    const { app: browserdeck } = await app();
    const outer = new Koa();
    outer.use(mount('/browserdeck', browserdeck));
    host = outer.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => host?.once('listening', resolve));
    const base = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
    const page = await fetch(`${base}/browserdeck/console/projects/x/stats`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('src="/browserdeck/console/assets/index-Ab12Cd34.js"');
    expect(html).toContain('href="/browserdeck/console/assets/index-Ef56Gh78.css"');
    const script = await fetch(`${base}/browserdeck/console/assets/index-Ab12Cd34.js`);
    expect(script.status).toBe(200);
    expect(await script.text()).toBe(SCRIPT);
    // The page at the root is its own, cached apart.
    expect(await (await t!.request('/console')).text()).toContain('src="/console/assets/index-Ab12Cd34.js"');
  });

  it('finds the built @browserdeck/console package by default', () => {
    expect(defaultConsoleDir()).toMatch(new RegExp(`${sep}packages${sep}console${sep}dist$`));
  });
});
