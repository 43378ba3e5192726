import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Server } from 'proxy-chain';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkUpstreamProxies } from './checkUpstreamProxies.ts';
import { EgressPolicy, type EgressPolicyOptions } from './EgressPolicy.ts';
import { EgressProxy, type EgressRefusal, type UpstreamFailure } from './EgressProxy.ts';
import { pinnedLookup } from './pinnedLookup.ts';

// Only loopback traffic: targets, the upstream proxy and the stand-in for the service listen on
// 127.0.0.1. What a session sets on its browser's proxy: upstreams, its own endpoint, the meter.

const BIG = `${'x'.repeat(99_990)}END-OF-BIG`;

/** A page server: `/` a short page, `/big` 100 000 bytes. */
async function startTarget(): Promise<{ port: number; server: http.Server }> {
  const server = http.createServer((req, res) => {
    res.end(req.url === '/big' ? BIG : 'hello from the target');
  });
  return { port: await listen(server), server };
}

/** An authenticated proxy-chain upstream that resolves `*.test` to 127.0.0.1, recording what it is asked. */
async function startUpstream(): Promise<{ port: number; seen: string[]; server: Server }> {
  const seen: string[] = [];
  const server = new Server({
    host: '127.0.0.1',
    port: 0,
    prepareRequestFunction: ({ username, password, hostname, port }) => {
      seen.push(`${username}:${password}@${hostname}:${port}`);
      return {
        requestAuthentication: username !== 'user' || password !== 'pass',
        dnsLookup: pinnedLookup([{ address: '127.0.0.1', family: 4 }]),
      };
    },
  });
  await server.listen();
  return { port: server.port, seen, server };
}

/**
 * The service stand-in: `/healthz` answers `ok`; any WebSocket upgrade is accepted (101, its path
 * echoed in a header) and echoes what it is sent, so a tunnel that lets the wrong one through shows.
 */
async function startService(): Promise<{ port: number; hits: string[]; server: http.Server }> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    res.end('ok');
  });
  server.on('upgrade', (req, socket: Socket) => {
    hits.push(`upgrade ${req.url}`);
    socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n`);
    socket.pipe(socket);
  });
  return { port: await listen(server), hits, server };
}

/**
 * A service behind a reverse proxy that does not upgrade: it answers the upgrade request as a plain
 * request (`?status=` picks the status) and keeps the connection alive for more, recording each.
 */
async function startKeepAliveService(): Promise<{ port: number; hits: string[]; server: http.Server }> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    const status = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('status') ?? 200);
    res.writeHead(status, { 'content-type': 'text/plain', connection: 'keep-alive' }).end('no upgrade here');
  });
  return { port: await listen(server), hits, server };
}

async function listen(server: http.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

async function freePort(): Promise<number> {
  const server = http.createServer();
  const port = await listen(server);
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A plain-HTTP GET through the proxy (absolute-form target, as a browser sends it). */
function viaHttp(proxy: EgressProxy, url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port: new URL(proxy.url).port, path: url, agent: false },
      (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.setHeader('host', new URL(url).host);
    req.on('error', reject);
    req.end();
  });
}

/** A CONNECT through the proxy: the status, and the tunnel when it is 200. */
function tunnel(proxy: EgressProxy, authority: string): Promise<{ status: number; socket: Socket | null }> {
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: '127.0.0.1',
      port: new URL(proxy.url).port,
      method: 'CONNECT',
      path: authority,
      agent: false,
    });
    req.on('connect', (res, socket) => {
      if (res.statusCode === 200) resolve({ status: 200, socket });
      else {
        socket.destroy();
        resolve({ status: res.statusCode ?? 0, socket: null });
      }
    });
    req.on('error', reject);
    req.end();
  });
}

/** Writes `request` into an open tunnel and reads until the peer ends it, or until `until` shows up. */
function exchange(socket: Socket, request: string, until?: string): Promise<string> {
  return new Promise((resolve) => {
    let raw = '';
    const done = () => resolve(raw);
    socket.setEncoding('utf8').on('data', (chunk: string) => {
      raw += chunk;
      if (until !== undefined && raw.includes(until)) done();
    });
    socket.on('end', done);
    socket.on('close', done);
    socket.on('error', done);
    socket.write(request);
  });
}

const upgradeRequest = (path: string, host: string) =>
  `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`;

/** DNS for the tests: nothing resolves (names reach targets only through the upstream). */
const lookup = async (hostname: string) => {
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
};

describe('EgressProxy: a session’s upstreams, own endpoint and bytes', () => {
  let target: Awaited<ReturnType<typeof startTarget>>;
  let upstream: Awaited<ReturnType<typeof startUpstream>>;
  let service: Awaited<ReturnType<typeof startService>>;
  let proxy: EgressProxy | null = null;
  const refusals: EgressRefusal[] = [];
  const failures: UpstreamFailure[] = [];

  const start = async (options: EgressPolicyOptions) => {
    const policy = new EgressPolicy(options);
    proxy = await EgressProxy.start({
      policy,
      lookup,
      onRefused: (refusal) => refusals.push(refusal),
      onUpstreamFailed: (failure) => failures.push(failure),
    });
    return { proxy, policy };
  };

  /** A proxy whose session routes `*.test` through the upstream with `password`. */
  const withUpstream = async (password: string, upstreamPort = upstream.port) => {
    const { proxy: egress, policy } = await start({ allow: [`127.0.0.1:${upstreamPort}`] });
    const routes = await checkUpstreamProxies(
      [
        {
          type: 'external',
          server: `http://127.0.0.1:${upstreamPort}`,
          username: 'user',
          password,
          domainPattern: '.*\\.test',
        },
      ],
      policy,
      lookup,
    );
    egress.useUpstreams(routes);
    return egress;
  };

  beforeAll(async () => {
    target = await startTarget();
    upstream = await startUpstream();
    service = await startService();
  });

  afterEach(async () => {
    await proxy?.close();
    proxy = null;
    refusals.length = 0;
    failures.length = 0;
    upstream.seen.length = 0;
    service.hits.length = 0;
  });

  afterAll(async () => {
    await upstream.server.close(true);
    for (const { server } of [target, service]) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('carries plain HTTP and CONNECT through the upstream with the credentials; the upstream resolves the name', async () => {
    const egress = await withUpstream('pass');
    expect(await viaHttp(egress, `http://site.test:${target.port}/`)).toEqual({
      status: 200,
      body: 'hello from the target',
    });
    const { status, socket } = await tunnel(egress, `site.test:${target.port}`);
    expect(status).toBe(200);
    const answer = await exchange(
      socket!,
      `GET / HTTP/1.1\r\nHost: site.test:${target.port}\r\nConnection: close\r\n\r\n`,
    );
    expect(answer).toContain('hello from the target');
    expect(upstream.seen).toEqual([
      `user:pass@site.test:${target.port}`,
      `user:pass@site.test:${target.port}`,
    ]);
    expect([refusals, failures]).toEqual([[], []]);
  });

  it('fails a wrong password visibly (502 page, failed tunnel) and reports it without the password', async () => {
    const egress = await withUpstream('wrong-secret');
    const page = await viaHttp(egress, `http://site.test:${target.port}/`);
    expect(page.status).toBe(502);
    expect(page.body).toContain(`through the upstream proxy http://127.0.0.1:${upstream.port}`);
    expect(page.body).toContain('407 Proxy Authentication Required');
    expect((await tunnel(egress, `site.test:${target.port}`)).status).not.toBe(200);
    expect(failures).toEqual([
      {
        upstream: `http://127.0.0.1:${upstream.port}`,
        host: 'site.test',
        port: target.port,
        reason: expect.stringContaining('407'),
        timestamp: expect.any(Number),
      },
      expect.objectContaining({ host: 'site.test', reason: expect.stringContaining('407') }),
    ]);
    expect(JSON.stringify(failures) + page.body).not.toContain('wrong-secret');
  });

  it('fails a dead upstream visibly and reports it', async () => {
    const dead = await freePort();
    const egress = await withUpstream('pass', dead);
    expect((await viaHttp(egress, `http://site.test:${target.port}/`)).status).toBeGreaterThanOrEqual(500);
    expect((await tunnel(egress, `site.test:${target.port}`)).status).toBeGreaterThanOrEqual(500);
    expect(failures).toEqual([
      expect.objectContaining({
        upstream: `http://127.0.0.1:${dead}`,
        host: 'site.test',
        port: target.port,
        reason: 'could not connect to the upstream proxy (ECONNREFUSED)',
      }),
      expect.objectContaining({ host: 'site.test', reason: expect.stringContaining('ECONNREFUSED') }),
    ]);
  });

  it('still judges an IP-literal target, and sends hosts no pattern matches direct', async () => {
    const egress = await withUpstream('pass');
    await expect(tunnel(egress, `127.0.0.1:${target.port}`)).resolves.toMatchObject({ status: 403 });
    // `localhost` matches no pattern: direct, where the policy refuses loopback.
    expect(await viaHttp(egress, `http://localhost:${target.port}/`)).toMatchObject({ status: 403 });
    expect(upstream.seen).toEqual([]);
    expect(refusals.map((r) => r.reason)).toEqual([
      expect.stringMatching(/^loopback \(127\.0\.0\.0\/8\)/),
      expect.stringMatching(/^loopback \(127\.0\.0\.0\/8\)/),
    ]);
  });

  it('meters bytes to and from the network, live tunnels included, and the rest once after close', async () => {
    const { proxy: egress } = await start({ allow: [`127.0.0.1:${target.port}`] });
    expect(egress.takeBytes()).toBe(0);
    expect((await viaHttp(egress, `http://127.0.0.1:${target.port}/big`)).body).toHaveLength(BIG.length);
    const first = egress.takeBytes();
    expect(first).toBeGreaterThan(BIG.length);
    expect(first).toBeLessThan(BIG.length + 2_000);
    expect(egress.takeBytes()).toBe(0);
    // A tunnel still open is counted as it goes.
    const { socket } = await tunnel(egress, `127.0.0.1:${target.port}`);
    await exchange(socket!, `GET /big HTTP/1.1\r\nHost: x\r\n\r\n`, 'END-OF-BIG');
    expect(egress.takeBytes()).toBeGreaterThan(BIG.length);
    // The tunnel's last bytes, counted when the proxy closes it, are handed out once.
    await exchange(socket!, `GET /big HTTP/1.1\r\nHost: x\r\n\r\n`, 'END-OF-BIG');
    await egress.close();
    proxy = null;
    expect(egress.takeBytes()).toBeGreaterThan(BIG.length);
    expect(egress.takeBytes()).toBe(0);
  });

  it('meters what goes through an upstream', async () => {
    const egress = await withUpstream('pass');
    await viaHttp(egress, `http://site.test:${target.port}/big`);
    expect(egress.takeBytes()).toBeGreaterThan(BIG.length);
  });

  it("opens the session's own connect path to the browser, and nothing else of the service", async () => {
    const { proxy: egress } = await start({});
    const path = '/v1/local/sessions/own-id/connect';
    egress.setOwnEndpoint({ host: '127.0.0.1', port: service.port, path });
    const host = `127.0.0.1:${service.port}`;

    const open = await tunnel(egress, host);
    expect(open.status).toBe(200);
    const handshake = await exchange(open.socket!, upgradeRequest(`${path}?signingKey=k`, host), '\r\n\r\n');
    expect(handshake).toMatch(/^HTTP\/1\.1 101 /);
    expect(await exchange(open.socket!, 'ping', 'ping')).toBe('ping');
    open.socket!.destroy();

    for (const request of [
      upgradeRequest('/v1/local/sessions/other-id/connect?signingKey=k', host),
      upgradeRequest(`${path}/../../other-id/connect`, host),
      `GET /healthz HTTP/1.1\r\nHost: ${host}\r\n\r\n`,
      `GET ${path} HTTP/1.1\r\nHost: ${host}\r\n\r\n`,
    ]) {
      const { status, socket } = await tunnel(egress, host);
      expect(status).toBe(200);
      expect([request, await exchange(socket!, request)]).toEqual([
        request,
        expect.stringMatching(/^HTTP\/1\.1 403 /),
      ]);
    }
    // Plain HTTP to the service (a page's fetch of /healthz) and another port stay refused.
    expect(await viaHttp(egress, `http://${host}/healthz`)).toMatchObject({
      status: 403,
      body: expect.stringContaining('loopback (127.0.0.0/8)'),
    });
    expect((await tunnel(egress, `127.0.0.1:${target.port}`)).status).toBe(403);
    expect(service.hits).toEqual([`upgrade ${path}?signingKey=k`]);
    expect(refusals.map((r) => r.reason)).toEqual([
      expect.stringContaining("only this session's own connect endpoint is open"),
      expect.stringContaining("only this session's own connect endpoint is open"),
      expect.stringContaining('not GET /healthz'),
      expect.stringContaining("only this session's own connect endpoint is open"),
      'loopback (127.0.0.0/8)',
      'loopback (127.0.0.0/8)',
    ]);
    // Another session's browser, or none set: refused at CONNECT.
    egress.setOwnEndpoint(null);
    expect((await tunnel(egress, host)).status).toBe(403);
  });

  it('keeps an EGRESS_DENY entry for the service in force over the own endpoint', async () => {
    const { proxy: egress } = await start({ deny: [`127.0.0.1:${service.port}`] });
    egress.setOwnEndpoint({
      host: '127.0.0.1',
      port: service.port,
      path: '/v1/local/sessions/own-id/connect',
    });
    expect((await tunnel(egress, `127.0.0.1:${service.port}`)).status).toBe(403);
    expect(refusals.map((r) => r.reason)).toEqual([`listed in EGRESS_DENY (127.0.0.1:${service.port})`]);
    expect(service.hits).toEqual([]);
  });

  it('joins the tunnel only on a 101: a refused upgrade or early bytes never reach the service as requests', async () => {
    const keepAlive = await startKeepAliveService();
    try {
      const { proxy: egress } = await start({});
      const path = '/v1/local/sessions/own-id/connect';
      egress.setOwnEndpoint({ host: '127.0.0.1', port: keepAlive.port, path });
      const host = `127.0.0.1:${keepAlive.port}`;
      const smuggled = `GET /healthz HTTP/1.1\r\nHost: ${host}\r\n\r\n`;
      for (const status of [400, 200]) {
        const { socket } = await tunnel(egress, host);
        const answer = await exchange(socket!, upgradeRequest(`${path}?status=${status}`, host), '\r\n\r\n');
        // The service's status, without its body; then the tunnel is closed.
        expect(answer).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
        expect(answer).not.toContain('no upgrade here');
        await new Promise((resolve) => (socket!.closed ? resolve(null) : socket!.once('close', resolve)));
        expect(socket!.write(smuggled)).toBe(false);
      }
      // Bytes sent with the upgrade request, before any answer: refused, nothing passed on.
      const { socket } = await tunnel(egress, host);
      expect(await exchange(socket!, upgradeRequest(path, host) + smuggled)).toBe('');
      expect(keepAlive.hits).toEqual([`GET ${path}?status=400`, `GET ${path}?status=200`]);
      expect(refusals.map((r) => r.reason)).toEqual([
        expect.stringContaining('not bytes sent before the WebSocket handshake was answered'),
      ]);
    } finally {
      keepAlive.server.closeAllConnections();
      await new Promise((resolve) => keepAlive.server.close(resolve));
    }
  });
});
